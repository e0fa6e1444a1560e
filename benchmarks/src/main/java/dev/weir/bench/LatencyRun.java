package dev.weir.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;
import dev.weir.engine.Pipeline;
import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.PipelineLayout;
import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.emit.AppliedListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalPretoucher;
import dev.weir.journal.codec.ResultKind;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * Latency under an offered load, corrected for coordinated omission.
 * <p>
 * A producer thread appends events to a fresh journal on a fixed schedule: event {@code i} is due at
 * {@code t0 + i / rate}. A following pipeline (tumbling windows, 10,000 keys, out-of-orderness 1 s,
 * durable output journal, checkpoints every 1,000,000 events) processes them. Two latencies are recorded,
 * both measured from the event's <em>scheduled</em> time rather than the moment it was actually appended,
 * so a stall anywhere (producer, publisher, engine) is charged to every event it delays, not only the one
 * that met it (coordinated omission):
 * <ul>
 * <li><b>applied</b>: until the engine has applied the event (its window updated, the windows its
 *     watermark advance completed fired and in the output journal), seen by an {@link AppliedListener};</li>
 * <li><b>result</b>: from the scheduled time of the event whose watermark advance passed a window's end
 *     until that window's result is in the output journal, seen by the {@link ResultListener} (called
 *     after the append). A watermark advance fires every key's window of that end at once, so this
 *     includes the whole burst before it.</li>
 * </ul>
 * Event time follows the schedule, as for live events (an event's time is its due time in ms, up to 31 ms
 * out of order), so a window end passes once per window size and fires every key's window at once
 * (10,000 windows). Events scheduled in the warm-up phase are not recorded. Offsets of the events must be dense
 * (keys are registered before the run); the run fails otherwise.
 */
public final class LatencyRun
{
    private static final int KEYS = 10_000;
    private static final long MAX_RECORDED_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final long rate;
    private final double warmupSeconds;
    private final double measureSeconds;
    private final String waitStrategy;
    private final String publisherIdle;
    private final PipelineLayout layout;
    private final long windowMillis;
    private final String earlyWhen;
    private int[] pinStages = new int[0];
    private int pinPublisher = -1;
    private boolean pretouch;

    /**
     * @param rate           offered load, events per second.
     * @param warmupSeconds  seconds of load before recording starts.
     * @param measureSeconds seconds of load recorded.
     * @param waitStrategy   the consumer's wait strategy: yielding, busyspin, sleeping or blocking.
     * @param publisherIdle  the journal publisher's idle strategy: yielding, busyspin or backoff.
     * @param layout         the thread layout.
     * @param windowMillis   the tumbling window size, ms.
     */
    public LatencyRun(
        final long rate,
        final double warmupSeconds,
        final double measureSeconds,
        final String waitStrategy,
        final String publisherIdle,
        final PipelineLayout layout,
        final long windowMillis)
    {
        this(rate, warmupSeconds, measureSeconds, waitStrategy, publisherIdle, layout, windowMillis, null);
    }

    /**
     * @param rate           offered load, events per second.
     * @param warmupSeconds  seconds of load before recording starts.
     * @param measureSeconds seconds of load recorded.
     * @param waitStrategy   the consumer's wait strategy: yielding, busyspin, sleeping or blocking.
     * @param publisherIdle  the journal publisher's idle strategy: yielding, busyspin or backoff.
     * @param layout         the thread layout.
     * @param windowMillis   the tumbling window size, ms.
     * @param earlyWhen      an early condition for the windows ({@code PipelineBuilder.earlyWhen}), whose
     *                       early rows are timed from the event that made it true; or null for none.
     */
    public LatencyRun(
        final long rate,
        final double warmupSeconds,
        final double measureSeconds,
        final String waitStrategy,
        final String publisherIdle,
        final PipelineLayout layout,
        final long windowMillis,
        final String earlyWhen)
    {
        this.earlyWhen = earlyWhen;
        this.layout = layout;
        this.windowMillis = windowMillis;
        this.rate = rate;
        this.warmupSeconds = warmupSeconds;
        this.measureSeconds = measureSeconds;
        this.waitStrategy = waitStrategy;
        this.publisherIdle = publisherIdle;
    }

    /**
     * Pin the engine's threads ({@code PipelineBuilder.pinStages}, {@code pinPublisher}).
     *
     * @param spec {@code none}, a stage thread's CPU ({@code 1}), or the stage thread's CPU and the publisher
     *             thread's ({@code 1,0}; the INLINE layout has no publisher thread).
     * @return this.
     */
    public LatencyRun pin(final String spec)
    {
        if (!"none".equals(spec))
        {
            final String[] cpus = spec.split(",");
            pinStages = new int[] {Integer.parseInt(cpus[0].trim())};
            pinPublisher = cpus.length > 1 ? Integer.parseInt(cpus[1].trim()) : -1;
        }
        return this;
    }

    /**
     * Touch the journal's pages ahead of the producer's appends from a helper thread ({@code EventJournal.pretouch}).
     *
     * @param spec {@code none} or {@code on}.
     * @return this.
     */
    public LatencyRun pretouch(final String spec)
    {
        if (!"none".equals(spec) && !"on".equals(spec))
        {
            throw new IllegalArgumentException("pretouch is none or on, not " + spec);
        }
        pretouch = "on".equals(spec);
        return this;
    }

    /**
     * The recorded latencies of one run, in nanoseconds.
     *
     * @param applied  append schedule to event applied.
     * @param result   append schedule of the watermark-advancing event to result in the output journal.
     * @param early    append schedule of the event that made a window's early condition true to its early
     *                 row in the output journal (empty without a condition).
     * @param appended append schedule to the append returning, on the producer's thread: the share of the
     *                 latency spent before the engine could see the event.
     * @param rate     the offered load.
     * @param achieved events appended per second during the run (below {@code rate} if the producer fell
     *                 behind).
     */
    public record Latencies(Histogram applied, Histogram result, Histogram early, Histogram appended, long rate, double achieved)
    {
        /**
         * Write both histograms as HdrHistogram percentile distributions in microseconds.
         *
         * @param dir  the directory.
         * @param name file name prefix.
         * @throws IOException if a file cannot be written.
         */
        public void write(final Path dir, final String name) throws IOException
        {
            Files.createDirectories(dir);
            try (PrintStream out = new PrintStream(Files.newOutputStream(dir.resolve(name + "-applied.hgrm"))))
            {
                applied.outputPercentileDistribution(out, 1000.0);
            }
            try (PrintStream out = new PrintStream(Files.newOutputStream(dir.resolve(name + "-result.hgrm"))))
            {
                result.outputPercentileDistribution(out, 1000.0);
            }
            if (early.getTotalCount() > 0)
            {
                try (PrintStream out = new PrintStream(Files.newOutputStream(dir.resolve(name + "-early.hgrm"))))
                {
                    early.outputPercentileDistribution(out, 1000.0);
                }
            }
            try (PrintStream out = new PrintStream(Files.newOutputStream(dir.resolve(name + "-appended.hgrm"))))
            {
                appended.outputPercentileDistribution(out, 1000.0);
            }
        }

        /**
         * @param h a histogram of these latencies.
         * @return p50, p99, p99.9, p99.99 and max in microseconds, one line.
         */
        public static String summary(final Histogram h)
        {
            return String.format("p50 %.1f  p99 %.1f  p99.9 %.1f  p99.99 %.1f  max %.1f µs  (n=%d)",
                h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0, h.getValueAtPercentile(99.9) / 1000.0,
                h.getValueAtPercentile(99.99) / 1000.0, h.getMaxValue() / 1000.0, h.getTotalCount());
        }
    }

    /**
     * Run the load once.
     *
     * @return the latencies.
     * @throws IOException          if the journal cannot be created.
     * @throws InterruptedException if interrupted.
     */
    public Latencies run() throws IOException, InterruptedException
    {
        final Path root = Files.createTempDirectory("weir-latency-");
        try
        {
            return run(root.resolve("journal"));
        }
        finally
        {
            Workloads.delete(root);
        }
    }

    private Latencies run(final Path dir) throws IOException, InterruptedException
    {
        final long warmupEvents = (long)(rate * warmupSeconds);
        final long events = warmupEvents + (long)(rate * measureSeconds);
        final Histogram applied = new Histogram(MAX_RECORDED_NANOS, 3);
        final Histogram result = new Histogram(MAX_RECORDED_NANOS, 3);
        final Histogram early = new Histogram(MAX_RECORDED_NANOS, 3);
        final Histogram appended = new Histogram(MAX_RECORDED_NANOS, 3);
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            if (pretouch)
            {
                journal.pretouch(JournalPretoucher.MAX_AHEAD_BYTES);
            }
            final int[] keys = new int[KEYS];
            for (int k = 0; k < KEYS; k++)
            {
                keys[k] = journal.keyId("k" + k);
            }
            final long base = 1_700_000_000_000L;
            // event 0 is appended before the pipeline starts: its offset anchors the schedule
            final long firstOffset = journal.append(0, base, keys[0], 0);
            final long t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            final long period = 1_000_000_000L;
            final Probe probe = new Probe(firstOffset, t0, rate, warmupEvents, applied, result, early);
            final PipelineBuilder builder = Weir.pipeline()
                .journal(dir)
                .window(TumblingWindows.of(Duration.ofMillis(windowMillis)))
                .outOfOrderness(Duration.ofSeconds(1))
                .initialWindows(64 * 1024)
                .layout(layout)
                .publisherIdle(publisherIdle(publisherIdle))
                .onApplied(probe)
                .onResult(probe)
                .pinStages(pinStages)
                .pinPublisher(layout == PipelineLayout.INLINE ? -1 : pinPublisher);
            if (layout != PipelineLayout.INLINE)
            {
                builder.waitStrategy(waitStrategy(waitStrategy)); // the inline layout has none
            }
            if (earlyWhen != null)
            {
                builder.earlyWhen(earlyWhen);
            }
            try (Pipeline pipeline = builder
                .build())
            {
                pipeline.start();
                long last = firstOffset;
                long seed = 42;
                for (long i = 1; i <= events; i++)
                {
                    final long due = t0 + (i - 1) * period / rate;
                    while (System.nanoTime() < due)
                    {
                        Thread.yield(); // the producer shares two cores with the engine: give way while early
                    }
                    seed = seed * 6364136223846793005L + 1442695040888963407L;
                    final int key = keys[(int)((seed >>> 33) % KEYS)];
                    // event time follows the schedule, as for live events: due time in ms, up to 31 ms out of order
                    final long time = base + (due - t0) / 1_000_000 - ((seed >>> 20) & 31);
                    final long offset = journal.append(i, time, key, (seed >>> 40) & 0xFFFF);
                    if (i > warmupEvents)
                    {
                        appended.recordValue(Math.min(MAX_RECORDED_NANOS, System.nanoTime() - due));
                    }
                    if (offset != firstOffset + i)
                    {
                        throw new IllegalStateException("offsets are not dense: event " + i + " at " + offset);
                    }
                    last = offset;
                }
                final double achieved = events / ((System.nanoTime() - t0) / 1e9);
                if (!pipeline.awaitOffset(last, 60, TimeUnit.SECONDS))
                {
                    throw new IllegalStateException("the pipeline did not catch up with offset " + last);
                }
                final RunSummary summary = pipeline.stop();
                if (summary.events() != events + 1)
                {
                    throw new IllegalStateException("processed " + summary.events() + " events, not " + (events + 1));
                }
                return new Latencies(applied, result, early, appended, rate, achieved);
            }
        }
    }

    static Supplier<WaitStrategy> waitStrategy(final String name)
    {
        switch (name)
        {
            case "yielding":
                return YieldingWaitStrategy::new;
            case "busyspin":
                return BusySpinWaitStrategy::new;
            case "sleeping":
                return SleepingWaitStrategy::new;
            case "blocking":
                return BlockingWaitStrategy::new;
            default:
                throw new IllegalArgumentException("unknown wait strategy " + name);
        }
    }

    static Supplier<IdleStrategy> publisherIdle(final String name)
    {
        switch (name)
        {
            case "yielding":
                return YieldingIdleStrategy::new;
            case "busyspin":
                return BusySpinIdleStrategy::new;
            case "backoff":
                return () -> new BackoffIdleStrategy(100, 10, 1_000, 1_000_000);
            default:
                throw new IllegalArgumentException("unknown idle strategy " + name);
        }
    }

    /**
     * Records both latencies on the engine thread: the event's scheduled time follows from its offset.
     */
    private static final class Probe implements AppliedListener, ResultListener
    {
        private final long firstOffset;
        private final long t0;
        private final long rate;
        private final long warmupEvents;
        private final Histogram applied;
        private final Histogram result;
        private final Histogram early;

        Probe(
            final long firstOffset,
            final long t0,
            final long rate,
            final long warmupEvents,
            final Histogram applied,
            final Histogram result,
            final Histogram early)
        {
            this.early = early;
            this.firstOffset = firstOffset;
            this.t0 = t0;
            this.rate = rate;
            this.warmupEvents = warmupEvents;
            this.applied = applied;
            this.result = result;
        }

        @Override
        public void onApplied(final long offset)
        {
            record(applied, offset);
        }

        @Override
        public void onResult(final WindowResult r)
        {
            record(r.kind() == ResultKind.EARLY ? early : result, r.sourceOffset());
        }

        private void record(final Histogram h, final long offset)
        {
            final long i = offset - firstOffset;
            if (i > warmupEvents)
            {
                final long due = t0 + (i - 1) * 1_000_000_000L / rate;
                h.recordValue(Math.min(MAX_RECORDED_NANOS, Math.max(0, System.nanoTime() - due)));
            }
        }
    }
}
