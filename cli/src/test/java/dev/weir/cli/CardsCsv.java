package dev.weir.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.TableAppender;
import dev.weir.journal.TableRow;
import dev.weir.journal.schema.TableDefinition;

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
     * Appends a CSV {@link #write} wrote to a journal's table {@code cards} through the Java API
     * ({@code journal.table("cards").upsert(row)}, {@code delete(row)}), adding the table (and creating the journal, its
     * events pending) if needed.
     *
     * @param file    the CSV.
     * @param journal the journal directory.
     * @throws IOException if the CSV cannot be read.
     */
    static void append(final Path file, final Path journal) throws IOException
    {
        JournalDirectory.openOrCreateForTable(journal, TableDefinition.parse("cards", KEY, COLUMNS), JournalRollCycle.DEFAULT);
        final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        try (EventJournal writer = EventJournal.open(JournalDirectory.open(journal)))
        {
            final TableAppender cards = writer.table("cards");
            for (final String line : lines.subList(1, lines.size()))
            {
                final String[] f = line.split(",", -1);
                final TableRow row = cards.row().validFrom(Long.parseLong(f[0]));
                row.setString(0, f[1]);
                if (f[5].equals("delete"))
                {
                    cards.delete(row);
                    continue;
                }
                row.setString(1, f[2]).setLong(2, new BigDecimal(f[3]).movePointRight(2).longValueExact()).setString(3, f[4]);
                cards.upsert(row);
            }
        }
    }

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
