package dev.weir.examples.fraud;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.Pipeline;
import dev.weir.engine.Weir;
import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.journal.EventJournal;
import org.HdrHistogram.Histogram;
import org.agrona.collections.IntHashSet;
import org.agrona.collections.LongArrayList;

/**
 * A card-fraud detector that embeds Weir. It appends card payments through the pipelines' own handles
 * (in-process producer) and alerts when:
 * <ul>
 * <li>a card's spend in a sliding 60 s / 5 s window exceeds {@link #SPEND_LIMIT_CENTS}, or</li>
 * <li>a session of rapid payments (gap 10 s) holds more than {@link #BURST_LIMIT} payments.</li>
 * </ul>
 * One pipeline per rule (a pipeline has one window spec), each following its own journal under the
 * directory; each payment is appended to both. The alert latency is measured from the moment the
 * payment whose event time closed the window was appended to the moment its alert is raised, and printed
 * as percentiles. The payments are simulated at {@code rate} per second of wall-clock time, with event
 * time running at 500 payments per second of card traffic.
 * <p>
 * Run it with {@code ./weir example} (see the README). Not thread-safe: {@link #run()} on one thread;
 * alerts are raised on the pipelines' threads.
 */
public final class FraudDetector
{
    /** Spend in one sliding window above which a card is alerted: 5,000.00. */
    public static final long SPEND_LIMIT_CENTS = 500_000;
    /** Payments in one session above which a card is alerted. */
    public static final int BURST_LIMIT = 8;

    private static final int FRAUD_EVERY = 10_000;

    private final Path dir;
    private final int payments;
    private final int cards;
    private final long rate;
    private final long seed;
    private final long[] appendedNanos;
    private final long[] spendOffsets;
    private final long[] burstOffsets;
    private final Rule spend = new Rule();
    private final Rule bursts = new Rule();
    private final IntHashSet fraudKeys = new IntHashSet();

    /**
     * @param dir      an empty or missing directory for the two journals.
     * @param payments how many payments to make.
     * @param cards    how many ordinary cards.
     * @param rate     payments per second of wall-clock time.
     * @param seed     the payments' seed.
     */
    public FraudDetector(final Path dir, final int payments, final int cards, final long rate, final long seed)
    {
        this.dir = dir;
        this.payments = payments;
        this.cards = cards;
        this.rate = rate;
        this.seed = seed;
        this.appendedNanos = new long[payments];
        this.spendOffsets = new long[payments];
        this.burstOffsets = new long[payments];
    }

    /**
     * Make the payments, wait until both pipelines have applied them, and stop.
     *
     * @return the alerts of both rules.
     * @throws IOException          if a journal cannot be created.
     * @throws InterruptedException if interrupted.
     */
    public Summary run() throws IOException, InterruptedException
    {
        final Path spendJournal = dir.resolve("spend");
        final Path burstJournal = dir.resolve("bursts");
        EventJournal.openOrCreate(spendJournal).close();
        EventJournal.openOrCreate(burstJournal).close();
        final long started = System.nanoTime();
        try (Pipeline spendRule = Weir.pipeline().journal(spendJournal).window(SlidingWindows.of(60_000, 5_000)).outOfOrderness(1_000)
                .onResult(r -> spend.onResult(r, r.sum() > SPEND_LIMIT_CENTS)).build().start();
             Pipeline burstRule = Weir.pipeline().journal(burstJournal).window(SessionWindows.withGap(10_000)).outOfOrderness(1_000)
                 .onResult(r -> bursts.onResult(r, r.count() > BURST_LIMIT)).build().start())
        {
            final Payments stream = new Payments(seed, cards, FRAUD_EVERY);
            // key ids by card number (the same in both journals: keys are defined in the same order)
            final int[] keyIds = new int[cards + payments / FRAUD_EVERY + 1];
            Arrays.fill(keyIds, -1);
            long lastSpend = -1;
            long lastBurst = -1;
            for (int i = 0; i < payments; i++)
            {
                final long due = started + i * 1_000_000_000L / rate;
                while (System.nanoTime() < due)
                {
                    Thread.yield(); // two pipelines and this producer share the machine's cores
                }
                stream.next(i);
                int keyId = keyIds[stream.card];
                if (keyId < 0)
                {
                    final String key = Payments.key(stream.card); // a card's first payment: define its key
                    keyId = spendRule.keyId(key);
                    if (burstRule.keyId(key) != keyId)
                    {
                        throw new IllegalStateException("the two journals disagree on the id of " + key);
                    }
                    keyIds[stream.card] = keyId;
                    if (stream.fraud)
                    {
                        fraudKeys.add(keyId);
                    }
                }
                appendedNanos[i] = System.nanoTime();
                lastSpend = spendRule.append(i, stream.eventTime, keyId, stream.amount);
                lastBurst = burstRule.append(i, stream.eventTime, keyId, stream.amount);
                spendOffsets[i] = lastSpend;
                burstOffsets[i] = lastBurst;
            }
            if (!spendRule.awaitOffset(lastSpend, 60, TimeUnit.SECONDS) || !burstRule.awaitOffset(lastBurst, 60, TimeUnit.SECONDS))
            {
                throw new IllegalStateException("the pipelines did not catch up");
            }
        }
        // the pipelines have stopped: their alerts, and these arrays, are all visible here
        return new Summary(payments, fraudKeys, cards, spend.cards, bursts.cards, spend.windows(), bursts.windows(),
            spend.latency(spendOffsets), bursts.latency(burstOffsets), System.nanoTime() - started);
    }

    /**
     * What a run found.
     *
     * @param payments      payments made.
     * @param fraudKeys     key ids of the cards that made an injected burst.
     * @param cards         ordinary cards.
     * @param spendCards    key ids of the cards alerted by the spend rule.
     * @param burstCards    key ids of the cards alerted by the burst rule.
     * @param spendWindows  windows that raised a spend alert.
     * @param burstWindows  sessions that raised a burst alert.
     * @param spendLatency  spend alert latency, ns.
     * @param burstLatency  burst alert latency, ns.
     * @param elapsedNanos  the run's duration.
     */
    public record Summary(
        int payments,
        IntHashSet fraudKeys,
        int cards,
        IntHashSet spendCards,
        IntHashSet burstCards,
        long spendWindows,
        long burstWindows,
        Histogram spendLatency,
        Histogram burstLatency,
        long elapsedNanos)
    {
        /**
         * @param out where to print.
         */
        public void print(final PrintStream out)
        {
            out.printf("Weir fraud detector: %,d payments (%,d s of card traffic, %,d cards) in %.1f s; %d cards made injected bursts%n",
                payments, payments / 500, cards + fraudKeys.size(), elapsedNanos / 1e9, fraudKeys.size());
            out.printf("spend rule (sum > %,.2f in a sliding 60 s / 5 s window): %d cards alerted (%d of the injected), %d window alerts%n",
                SPEND_LIMIT_CENTS / 100.0, spendCards.size(), caught(spendCards), spendWindows);
            out.printf("burst rule (more than %d payments in a session, gap 10 s): %d cards alerted (%d of the injected), %d session alerts%n",
                BURST_LIMIT, burstCards.size(), caught(burstCards), burstWindows);
            out.printf("alert latency, from the append of the payment that closed the window, µs:%n");
            print(out, "  spend", spendLatency);
            print(out, "  burst", burstLatency);
        }

        private int caught(final IntHashSet alerted)
        {
            int caught = 0;
            for (final int key : fraudKeys)
            {
                caught += alerted.contains(key) ? 1 : 0;
            }
            return caught;
        }

        private static void print(final PrintStream out, final String rule, final Histogram h)
        {
            out.printf("%s: p50 %,.1f  p99 %,.1f  p99.9 %,.1f  max %,.1f  (%,d alerts)%n", rule, h.getValueAtPercentile(50) / 1e3,
                h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3, h.getTotalCount());
        }
    }

    /**
     * One rule's alerts, raised on its pipeline's thread (recorded as they come: when, and the offset of the
     * payment whose processing fired the window); read after the pipeline stopped.
     */
    private final class Rule
    {
        final IntHashSet cards = new IntHashSet();
        final LongArrayList alertNanos = new LongArrayList();
        final LongArrayList alertOffsets = new LongArrayList();

        void onResult(final WindowResult r, final boolean alert)
        {
            if (alert)
            {
                alertNanos.addLong(System.nanoTime());
                alertOffsets.addLong(r.sourceOffset());
                cards.add(r.keyId());
            }
        }

        long windows()
        {
            return alertNanos.size();
        }

        Histogram latency(final long[] offsets)
        {
            final Histogram h = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
            for (int a = 0; a < alertNanos.size(); a++)
            {
                final int payment = Arrays.binarySearch(offsets, alertOffsets.getLong(a));
                if (payment >= 0)
                {
                    h.recordValue(Math.min(h.getHighestTrackableValue(), Math.max(0, alertNanos.getLong(a) - appendedNanos[payment])));
                }
            }
            return h;
        }
    }

    /**
     * {@code FraudDetector [payments [rate]]}: run in a new temporary directory and print the summary.
     *
     * @param args optional payments (default 200,000) and rate per second (default 20,000).
     * @throws Exception if the run fails.
     */
    public static void main(final String[] args) throws Exception
    {
        final int payments;
        final long rate;
        try
        {
            if (args.length > 2)
            {
                throw new NumberFormatException("too many arguments");
            }
            payments = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
            rate = args.length > 1 ? Long.parseLong(args[1]) : 20_000;
            if (payments <= 0 || rate <= 0)
            {
                throw new NumberFormatException("payments and rate must be greater than zero");
            }
        }
        catch (final NumberFormatException ex)
        {
            System.err.println("usage: weir example [payments [rate per second]]   (default: 200000 20000)"
                + (args.length > 0 && args[0].startsWith("-") ? "" : "\nweir example: " + ex.getMessage()));
            System.exit(args.length > 0 && (args[0].equals("--help") || args[0].equals("-h")) ? 0 : 2);
            return;
        }
        final Path dir = Files.createTempDirectory("weir-fraud-");
        System.out.println("journals in " + dir);
        new FraudDetector(dir, payments, 100_000, rate, 42).run().print(System.out);
    }
}
