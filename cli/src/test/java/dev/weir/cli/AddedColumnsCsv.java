package dev.weir.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Payments CSVs for the tests of columns added to a journal: {@value #FOUR} first, then the same with the two
 * columns {@value #ADDED} a feed gains. Event {@code i} has id {@code i} and time {@code 100000 + i} ms, up to
 * 300 ms out of order and 1 in 200 events 2 to 3 s late; about 1 line in 500 is bad (a decimal of scale 3) and
 * rejected. Every event's fields are drawn from the seed and its id alone, so a file of events {@code [from, to)}
 * holds the same events in any {@link Shape}. Stateless.
 */
final class AddedColumnsCsv
{
    /** The columns the journal is created with. */
    static final String FOUR = "card:string,merchant:string,country:string,amount:decimal(2)";
    /** The columns added, with their defaults. */
    static final String ADDED = "channel:string=web,fee:decimal(2)=0";
    /** The columns after the addition. */
    static final String SIX = FOUR + "," + ADDED;

    private static final String[] COUNTRIES = {"FR", "DE", "IT", "CH"};
    private static final String[] CHANNELS = {"pos", "online", "app", "web"};

    /** How the lines are written. */
    enum Shape
    {
        /** The four columns only. */
        FOUR,
        /** Six columns whose channel and fee are the defaults, written out ({@code web}, {@code 0.00}). */
        SIX_DEFAULTS,
        /** Six columns, channel and fee drawn. */
        SIX
    }

    private AddedColumnsCsv()
    {
    }

    /**
     * @param file  the CSV to write.
     * @param from  the first event's id.
     * @param to    the id after the last event.
     * @param seed  the stream's seed.
     * @param shape how the lines are written.
     * @return the valid events written ({@code to - from}).
     * @throws IOException if it cannot be written.
     */
    static long write(final Path file, final int from, final int to, final long seed, final Shape shape) throws IOException
    {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            out.write("event_id,event_time,card,merchant,country,amount" + (shape == Shape.FOUR ? "" : ",channel,fee") + "\n");
            for (int i = from; i < to; i++)
            {
                final SplittableRandom random = new SplittableRandom(seed * 1_000_003L + i);
                final long lateBy = random.nextInt(200) == 0 ? 2_000 + random.nextInt(1_000) : random.nextInt(300);
                final long time = 100_000L + i - lateBy;
                final String fields = i + "," + time + ",card-" + random.nextInt(40) + ",merchant-" + random.nextInt(12) + ","
                    + COUNTRIES[random.nextInt(COUNTRIES.length)] + ",";
                final String amount = BigDecimal.valueOf(random.nextLong(-2_000, 40_000), 2).toPlainString();
                final String channel = CHANNELS[random.nextInt(CHANNELS.length)];
                final String fee = BigDecimal.valueOf(random.nextInt(300), 2).toPlainString();
                final String added = switch (shape)
                {
                    case FOUR -> "";
                    case SIX_DEFAULTS -> ",web,0.00";
                    case SIX -> "," + channel + "," + fee;
                };
                if (random.nextInt(500) == 0)
                {
                    out.write((2_000_000 + i) + "," + time + ",card-x,merchant-x,FR,1.234" + added + "\n");
                }
                out.write(fields + amount + added + "\n");
            }
        }
        return to - from;
    }
}
