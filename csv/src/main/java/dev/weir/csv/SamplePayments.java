package dev.weir.csv;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A seeded, realistic events CSV of card payments, the data of {@code weir demo} and a fixture for trying a
 * pipeline: payments spread over cards {@code card-0001}.. (some cards much busier than others), amounts in cents
 * (mostly small, a long tail of large ones), about a thousand a second of event time from {@link #START_MS},
 * arriving mostly in order, some a few seconds out of order and a few far too late, plus three malformed lines. The
 * file has the default header ({@link CsvLineParser#DEFAULT_HEADER}). The same arguments write the same bytes.
 * <p>
 * Immutable and thread-safe; each {@link #writeTo} call writes the whole stream on the calling thread.
 */
public final class SamplePayments
{
    /** Event time of the first payment: 2026-11-30T09:00:00Z. */
    public static final long START_MS = Instant.parse("2026-11-30T09:00:00Z").toEpochMilli();

    private final int payments;
    private final int cards;
    private final long seed;

    /**
     * @param payments how many payments to write, at least 1.
     * @param cards    how many distinct cards, 1 to 9999.
     * @param seed     the random seed.
     * @throws IllegalArgumentException if a count is out of range.
     */
    public SamplePayments(final int payments, final int cards, final long seed)
    {
        if (payments < 1 || cards < 1 || cards > 9999)
        {
            throw new IllegalArgumentException("payments must be >= 1 and cards between 1 and 9999: " + payments + ", " + cards);
        }
        this.payments = payments;
        this.cards = cards;
        this.seed = seed;
    }

    /**
     * Write the stream as an events CSV.
     *
     * @param file where to write.
     * @return how many lines are malformed on purpose.
     * @throws UncheckedIOException if the file cannot be written.
     */
    public int writeTo(final Path file)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] eventTime = new long[payments];
        final long[] arrival = new long[payments];
        final Integer[] order = new Integer[payments];
        // about 1,000 payments per second of event time
        for (int i = 0; i < payments; i++)
        {
            eventTime[i] = START_MS + i + random.nextInt(3);
            final int roll = random.nextInt(1000);
            long delay = 0;
            if (roll < 2)
            {
                delay = 20_000 + random.nextInt(40_000); // far too late: its window has closed
            }
            else if (roll < 60)
            {
                delay = random.nextInt(4_000); // out of order, within the tolerated 5 s
            }
            arrival[i] = eventTime[i] + delay;
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> a.equals(b) ? 0
            : arrival[a] != arrival[b] ? Long.compare(arrival[a], arrival[b]) : Integer.compare(a, b));

        final int[] malformedAt = {payments / 7, payments / 3, (payments / 5) * 4};
        final String[] malformed = {"oops,this is not a payment", "123,-5,card-0001,100", "124,1796029260000,card #7,100"};
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            out.write(CsvLineParser.DEFAULT_HEADER);
            out.write('\n');
            int bad = 0;
            for (int n = 0; n < payments; n++)
            {
                if (bad < malformedAt.length && n == malformedAt[bad])
                {
                    out.write(malformed[bad]);
                    out.write('\n');
                    bad++;
                }
                final int i = order[n];
                out.write(Long.toString(1_000_000L + i));
                out.write(',');
                out.write(Long.toString(eventTime[i]));
                out.write(',');
                out.write(card(random));
                out.write(',');
                out.write(Long.toString(amountCents(random)));
                out.write('\n');
            }
            return malformed.length;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    private String card(final SplittableRandom random)
    {
        // a skewed choice: a fifth of the cards make about half of the payments
        final int hot = Math.max(1, cards / 5);
        final int card = random.nextBoolean() ? random.nextInt(hot) : random.nextInt(cards);
        return String.format("card-%04d", card + 1);
    }

    private static long amountCents(final SplittableRandom random)
    {
        // log-uniform between 1.00 and 2,000.00
        final double amount = Math.exp(random.nextDouble(Math.log(100), Math.log(200_000)));
        return Math.round(amount);
    }
}
