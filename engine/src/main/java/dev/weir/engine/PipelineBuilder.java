package dev.weir.engine;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Supplier;

import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.WindowSpec;

/**
 * Configures a {@link Pipeline}. Defaults: out-of-orderness 0, allowed lateness 0, late policy
 * {@link LatePolicy#DROP}, results to the journal's output journal, late events nowhere, the
 * {@link PipelineLayout#FUSED} layout, a yielding wait strategy, a ring of 4096 slots.
 * A journal directory and a window spec are required.
 * <p>
 * Not thread-safe: configure on one thread, then {@link #build()}.
 */
public final class PipelineBuilder
{
    Path journal;
    WindowSpec window;
    long outOfOrderness;
    long allowedLateness;
    LatePolicy latePolicy = LatePolicy.DROP;
    ResultListener results;
    LateListener late = LateListener.NONE;
    PipelineLayout layout = PipelineLayout.FUSED;
    Supplier<WaitStrategy> waitStrategy = YieldingWaitStrategy::new;
    int ringSize = 4096;
    int initialWindows = 1024;

    PipelineBuilder()
    {
    }

    /**
     * @param directory the Weir journal to read (it must exist).
     * @return this.
     */
    public PipelineBuilder journal(final Path directory)
    {
        this.journal = Objects.requireNonNull(directory, "journal");
        return this;
    }

    /**
     * @param spec tumbling, sliding or session windows.
     * @return this.
     */
    public PipelineBuilder window(final WindowSpec spec)
    {
        this.window = Objects.requireNonNull(spec, "window");
        return this;
    }

    /**
     * @param millis D, how far behind the newest event time events may arrive without being late, &gt;= 0.
     * @return this.
     */
    public PipelineBuilder outOfOrderness(final long millis)
    {
        if (millis < 0)
        {
            throw new IllegalArgumentException("out-of-orderness must be >= 0 ms: " + millis);
        }
        this.outOfOrderness = millis;
        return this;
    }

    /**
     * @param millis A, how long after its end a window still accepts events (and re-fires), &gt;= 0.
     * @return this.
     */
    public PipelineBuilder allowedLateness(final long millis)
    {
        if (millis < 0)
        {
            throw new IllegalArgumentException("allowed lateness must be >= 0 ms: " + millis);
        }
        this.allowedLateness = millis;
        return this;
    }

    /**
     * @param policy what to do with events skipped as late.
     * @return this.
     */
    public PipelineBuilder latePolicy(final LatePolicy policy)
    {
        this.latePolicy = Objects.requireNonNull(policy, "latePolicy");
        return this;
    }

    /**
     * @param listener receives every result on the engine thread (instead of the output journal).
     * @return this.
     */
    public PipelineBuilder onResult(final ResultListener listener)
    {
        this.results = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * @param listener receives skipped events under {@link LatePolicy#SIDE}, on the engine thread.
     * @return this.
     */
    public PipelineBuilder onLate(final LateListener listener)
    {
        this.late = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * @param pipelineLayout how stages map to threads.
     * @return this.
     */
    public PipelineBuilder layout(final PipelineLayout pipelineLayout)
    {
        this.layout = Objects.requireNonNull(pipelineLayout, "layout");
        return this;
    }

    /**
     * @param factory makes the Disruptor wait strategy of the consumer thread(s).
     * @return this.
     */
    public PipelineBuilder waitStrategy(final Supplier<WaitStrategy> factory)
    {
        this.waitStrategy = Objects.requireNonNull(factory, "waitStrategy");
        return this;
    }

    /**
     * @param slots ring size, a power of two.
     * @return this.
     */
    public PipelineBuilder ringSize(final int slots)
    {
        if (slots < 1 || Integer.bitCount(slots) != 1)
        {
            throw new IllegalArgumentException("ring size must be a power of two: " + slots);
        }
        this.ringSize = slots;
        return this;
    }

    /**
     * @param windows open (key, window) states to pre-allocate room for.
     * @return this.
     */
    public PipelineBuilder initialWindows(final int windows)
    {
        this.initialWindows = Math.max(16, windows);
        return this;
    }

    /**
     * @return a pipeline over the journal, not yet running.
     * @throws IllegalStateException if the journal or the window spec is missing.
     * @throws dev.weir.journal.JournalRefusedException if the journal directory is not a Weir journal.
     */
    public Pipeline build()
    {
        if (journal == null)
        {
            throw new IllegalStateException("a journal directory is required");
        }
        if (window == null)
        {
            throw new IllegalStateException("a window spec is required");
        }
        return new Pipeline(this);
    }
}
