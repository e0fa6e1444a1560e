package dev.weir.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * A generated card profile table CSV for the join kill tests ({@code event_time,card,home,limit,segment,op}), over
 * the cards of {@link PaymentsCsv} ({@code card-0} to {@code card-299}) and a few no payment names: each row valid
 * from 0, from a time inside the payments' span (100,000 to 116,000 ms), or from the future; some from the same
 * time as their card's previous row; 1 in 8 a tombstone ({@code op} {@code delete}, other fields empty). Immutable.
 *
 * @param rows the rows written.
 */
record CardsCsv(long rows)
{
    /** The table's {@code --columns}. */
    static final String COLUMNS = "card:string,home:string=ZZ,limit:decimal(2)=0,segment:string";
    /** The table's {@code --key}. */
    static final String KEY = "card";

    private static final String HEADER = "event_time,card,home,limit,segment,op";
    private static final String[] COUNTRIES = {"FR", "DE", "IT", "CH"};

    /**
     * @param file the CSV.
     * @param rows rows to write.
     * @param seed the seed.
     * @return what was written.
     * @throws IOException if it cannot be written.
     */
    static CardsCsv write(final Path file, final int rows, final long seed) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] previous = new long[310];
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            out.write(HEADER);
            out.write('\n');
            for (int i = 0; i < rows; i++)
            {
                final int card = random.nextInt(previous.length);
                final long validFrom = switch (random.nextInt(5))
                {
                    case 0 -> 0;
                    case 1 -> previous[card];
                    case 2 -> 200_000L + random.nextInt(10_000);
                    default -> 100_000L + random.nextInt(16_000);
                };
                previous[card] = validFrom;
                if (random.nextInt(8) == 0)
                {
                    out.write(validFrom + ",card-" + card + ",,,,delete\n");
                    continue;
                }
                final String limit = BigDecimal.valueOf(random.nextLong(0, 5_000_000), 2).toPlainString();
                out.write(validFrom + ",card-" + card + "," + COUNTRIES[random.nextInt(COUNTRIES.length)] + "," + limit + ","
                    + (random.nextBoolean() ? "gold" : "std") + "," + (random.nextBoolean() ? "upsert" : "") + "\n");
            }
        }
        return new CardsCsv(rows);
    }
}
