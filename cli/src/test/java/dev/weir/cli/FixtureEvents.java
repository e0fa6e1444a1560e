package dev.weir.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The events CSVs of the upgrade fixtures ({@link FixtureSetWriter}): a seeded stream of card payments (or of
 * the default {@code key,value} columns) whose times advance 200 ms per event, most up to 1.5 s out of order,
 * about 1 in 40 8 to 20 s late (late events and re-firings), about 1 in 60 a repeat of an earlier event id
 * (dedupe), and about 1 in 150 lines malformed (rejected lines). The last line is always a valid event, so that
 * a follower has applied a file when it has applied its last event. Stateless.
 */
final class FixtureEvents
{
    /** The columns of the payments stream. */
    static final String PAYMENT_COLUMNS = "card:string,merchant:string,country:string,amount:decimal(2),fee:long";
    /** The four columns a journal that gains columns is created with. */
    static final String FOUR_COLUMNS = "card:string,merchant:string,country:string,amount:decimal(2)";
    /** The columns it gains, with their defaults. */
    static final String ADDED_COLUMNS = "channel:string=web,fee:decimal(2)=0";

    /** The columns of a stream. */
    enum Columns
    {
        /** {@code key,value}. */
        KEY_VALUE("event_id,event_time,key,value"),
        /** {@link #PAYMENT_COLUMNS}. */
        PAYMENTS("event_id,event_time,card,merchant,country,amount,fee"),
        /** {@link #FOUR_COLUMNS}. */
        FOUR("event_id,event_time,card,merchant,country,amount"),
        /** {@link #FOUR_COLUMNS} and {@link #ADDED_COLUMNS}. */
        SIX("event_id,event_time,card,merchant,country,amount,channel,fee");

        private final String header;

        Columns(final String header)
        {
            this.header = header;
        }
    }

    private static final String[] CHANNELS = {"web", "app", "pos"};

    private static final String[] COUNTRIES = {"FR", "DE", "NL", "US"};
    private static final long STEP_MS = 200;

    private FixtureEvents()
    {
    }

    /**
     * @param file     the CSV to write.
     * @param payments true for {@link #PAYMENT_COLUMNS}, false for {@code key,value}.
     * @param firstId  the first event id.
     * @param events   the events (repeats included, malformed lines not).
     * @param start    the first event's time, epoch ms.
     * @param seed     the stream's seed.
     * @return the time after the newest event's.
     * @throws IOException if it cannot be written.
     */
    static long write(final Path file, final boolean payments, final long firstId, final int events, final long start, final long seed)
        throws IOException
    {
        return write(file, payments ? Columns.PAYMENTS : Columns.KEY_VALUE, firstId, events, start, seed);
    }

    /**
     * @param columns the stream's columns; the others as {@link #write(Path, boolean, long, int, long, long)}.
     */
    static long write(final Path file, final Columns columns, final long firstId, final int events, final long start, final long seed)
        throws IOException
    {
        final boolean payments = columns != Columns.KEY_VALUE;
        final SplittableRandom random = new SplittableRandom(seed);
        final StringBuilder csv = new StringBuilder(columns.header).append('\n');
        for (int i = 0; i < events; i++)
        {
            if (i > 0 && i < events - 1 && random.nextInt(150) == 0)
            {
                csv.append(random.nextBoolean() ? "not,a,payment\n" : firstId + i + ",1000,card-1,m1,FR,12.3x" + fee(columns, 1) + "\n");
            }
            final long lateBy = random.nextInt(40) == 0 ? 8_000 + random.nextInt(12_000) : random.nextInt(1_500);
            final long time = Math.max(start, start + i * STEP_MS - lateBy);
            final long id = i > 10 && random.nextInt(60) == 0 ? firstId + i - 1 - random.nextInt(10) : firstId + i;
            csv.append(id).append(',').append(time).append(',');
            if (payments)
            {
                final int cents = 100 + random.nextInt(9_900);
                csv.append("card-").append(random.nextInt(12)).append(",m").append(random.nextInt(5)).append(',')
                    .append(COUNTRIES[random.nextInt(COUNTRIES.length)]).append(',').append(cents / 100).append('.')
                    .append(String.format("%02d", cents % 100)).append(fee(columns, random.nextInt(30))).append('\n');
            }
            else
            {
                csv.append('k').append(random.nextInt(15)).append(',').append(random.nextInt(2_000) - 500).append('\n');
            }
        }
        Files.writeString(file, csv, StandardCharsets.UTF_8);
        return start + events * STEP_MS;
    }

    /** @return the fields after {@code amount}: the fee as a long, none, or a channel and the fee in tenths as a decimal. */
    private static String fee(final Columns columns, final int fee)
    {
        return switch (columns)
        {
            case FOUR -> "";
            case SIX -> "," + CHANNELS[fee % CHANNELS.length] + "," + fee / 10 + "." + fee % 10 + "0";
            default -> "," + fee;
        };
    }
}
