package dev.weir.engine;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import java.util.function.Supplier;

import com.lmax.disruptor.WaitStrategy;
import dev.weir.engine.aggregate.Aggregation;
import dev.weir.engine.aggregate.NamedAggregates;
import dev.weir.engine.checkpoint.CheckpointListener;
import dev.weir.engine.delivery.DeliveryListener;
import dev.weir.engine.delivery.OutputSink;
import dev.weir.engine.emit.AppliedListener;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.expr.ColumnProjection;
import dev.weir.engine.expr.EventFilter;
import dev.weir.engine.expr.EventValue;
import dev.weir.engine.join.JoinMissing;
import dev.weir.engine.operator.OperatorConfiguration;
import dev.weir.engine.operator.WindowCondition;
import dev.weir.engine.time.DurationMillis;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import org.agrona.concurrent.IdleStrategy;

/**
 * Configures a {@link Pipeline}. Defaults: out-of-orderness 0, allowed lateness 0, late policy
 * {@link LatePolicy#DROP}, no dedupe, durable outputs (results and late events go to the journal's output
 * journal exactly once, with a checkpoint every 1,000,000 events, and then to the listeners, if any), the
 * {@link PipelineLayout#FUSED} layout with a yielding wait strategy for bounded runs (fastest on two cores),
 * the {@link PipelineLayout#INLINE} layout for following ones (one thread; lowest latency), whose idle
 * strategy backs off to parking while no events come, and a ring of 4096 slots. A following pipeline given
 * a consumer wait strategy runs {@link PipelineLayout#FUSED} (the inline layout has no consumer wait
 * strategy: it idles with {@link #publisherIdle(Supplier)}).
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
    AppliedListener applied;
    PipelineFailureListener failure;
    CheckpointListener checkpointListener;
    PipelineStateListener stateListener;
    ThreadFactory threadFactory;
    int[] pinStages = new int[0];
    int pinPublisher = -1;
    final List<Aggregation> aggregations = new ArrayList<>();
    Supplier<IdleStrategy> publisherIdle;
    PipelineLayout layout;
    Supplier<WaitStrategy> waitStrategy;
    int ringSize = 4096;
    int initialWindows = 1024;
    boolean dedupe;
    boolean durableOutput = true;
    long checkpointInterval = 1_000_000;
    boolean syncOnCheckpoint;
    boolean checkpointEachHeartbeat;
    long fromOffset = -1;
    long toOffset = Long.MAX_VALUE;
    long idleTimeoutMillis;
    Consumer<RuntimeException> heartbeatsStopped;
    long retentionMillis = -1;
    Path retentionArchive;
    OutputSink deliverySink;
    long deliveryIntervalMillis;
    DeliveryListener deliveryListener;
    String keyColumn = ColumnProjection.DEFAULT_KEY;
    String valueColumn = ColumnProjection.DEFAULT_VALUE;
    /** True once a value was given ({@link #valueColumn}, {@link #value}): named aggregates refuse it. */
    boolean valueGiven;
    EventValue valueExpression;
    /** The named aggregates, or null. */
    NamedAggregates named;
    String filterText;
    EventFilter filter;
    String filterName;
    String pipeline = JournalDirectory.DEFAULT_PIPELINE;
    boolean emitUpdates;
    WindowCondition earlyWhen;
    String earlyWhenText;
    boolean earlyOncePerKey;
    boolean resumeAfterEnd;
    CheckpointPayload recoverFrom;
    /** Per {@code join}, the table's name then the event columns for its key columns (none: by the key's names). */
    final List<String[]> joins = new ArrayList<>();
    JoinMissing joinMissing = JoinMissing.DROP;

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
     * @param outOfOrderness D, how far behind the newest event time events may arrive without being late, &gt;= 0,
     *                       whole milliseconds.
     * @return this.
     * @throws IllegalArgumentException if it is negative, not whole milliseconds, or too long.
     */
    public PipelineBuilder outOfOrderness(final Duration outOfOrderness)
    {
        return outOfOrderness(DurationMillis.of("out-of-orderness", outOfOrderness));
    }

    /**
     * @param millis D, how far behind the newest event time events may arrive without being late, &gt;= 0.
     * @return this.
     * @deprecated a bare number of milliseconds is easy to misread: use {@link #outOfOrderness(Duration)}.
     */
    @Deprecated
    public PipelineBuilder outOfOrderness(final long millis)
    {
        this.outOfOrderness = OperatorConfiguration.checkDuration("out-of-orderness", millis);
        return this;
    }

    /**
     * @param lateness A, how long after its end a window still accepts events (and re-fires), &gt;= 0, whole
     *                 milliseconds.
     * @return this.
     * @throws IllegalArgumentException if it is negative, not whole milliseconds, or too long.
     */
    public PipelineBuilder allowedLateness(final Duration lateness)
    {
        return allowedLateness(DurationMillis.of("allowed lateness", lateness));
    }

    /**
     * @param millis A, how long after its end a window still accepts events (and re-fires), &gt;= 0.
     * @return this.
     * @deprecated a bare number of milliseconds is easy to misread: use {@link #allowedLateness(Duration)}.
     */
    @Deprecated
    public PipelineBuilder allowedLateness(final long millis)
    {
        this.allowedLateness = OperatorConfiguration.checkDuration("allowed lateness", millis);
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
     * @param listener receives every result on the engine thread, after it is in the output journal
     *                 (results reproduced during recovery are not delivered twice).
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
     * Add a user aggregation: each call adds one more, after those added before.
     *
     * @param userAggregation computed per (key, window) beside count, sum, min and max, e.g.
     *                        {@code new Average()}, {@code new ApproxDistinct()} or
     *                        {@code ApproxDistinct.of("merchant")}; its result reaches listeners as
     *                        {@code WindowResult.aggregate(i)} (i in the order added; {@code aggregate()} is
     *                        the first's) and is stored with each result in the output journal. Its name is
     *                        part of the configuration a checkpoint must match, as are the aggregations' order
     *                        and number. One that reads columns is bound to the journal's schema by
     *                        {@link #conclude()}. At most {@link Aggregation#MAX_AGGREGATIONS}.
     * @return this.
     */
    public PipelineBuilder aggregate(final Aggregation userAggregation)
    {
        aggregations.add(Objects.requireNonNull(userAggregation, "aggregation"));
        return this;
    }

    /**
     * Add several user aggregations, in order: the same as {@link #aggregate(Aggregation)} for each.
     *
     * @param userAggregations the aggregations.
     * @return this.
     */
    public PipelineBuilder aggregates(final Aggregation... userAggregations)
    {
        for (final Aggregation a : userAggregations)
        {
            aggregate(a);
        }
        return this;
    }

    /**
     * Compute named aggregates per (key, window) instead of count, sum, min, max and user aggregations, e.g.
     * {@code open=first(price),close=last(price),vwap=sum(price*qty)/sum(qty),trades=count()}. Each result then
     * carries their values, in order ({@code WindowResult.aggregate(i)}, {@code aggregateName(i)},
     * {@code aggregateScale(i)}), and says which the window has a value for ({@code hasAggregate(i)}: an aggregate
     * over no matching event has none). They name their values themselves: {@link #conclude()} refuses a
     * {@link #value(String) value} and {@link #aggregate(Aggregation) user aggregations} beside them, and binds them to
     * the journal's columns (joined tables' too). Their normalised text is part of the configuration a checkpoint must
     * match. An {@link #earlyWhen(String) early condition} then compares them by name. Replaces any list given before.
     *
     * @param list the named aggregates, at most {@link NamedAggregates#MAX}.
     * @return this.
     * @throws dev.weir.engine.aggregate.AggregateSyntaxException if the list does not parse (the message names the
     *                                                             position).
     */
    public PipelineBuilder aggregates(final String list)
    {
        return aggregates(NamedAggregates.parse(Objects.requireNonNull(list, "aggregates")));
    }

    /**
     * The same as {@link #aggregates(String)} with a list already parsed.
     *
     * @param list the named aggregates.
     * @return this.
     */
    public PipelineBuilder aggregates(final NamedAggregates list)
    {
        this.named = Objects.requireNonNull(list, "aggregates");
        return this;
    }

    /**
     * @param enabled after each event added to a window whose end the watermark has not passed, also emit an
     *                {@code update} row ({@code WindowResult.kind()}) with the window's current aggregate and
     *                the version its next firing will carry; final rows are unchanged. Part of the
     *                configuration a checkpoint must match.
     * @return this.
     */
    public PipelineBuilder emitUpdates(final boolean enabled)
    {
        this.emitUpdates = enabled;
        return this;
    }

    /**
     * @param condition after each event added to a window whose end the watermark has not passed, if the
     *                  window has emitted no early row yet and this holds, emit its one {@code early} row
     *                  ({@code WindowResult.kind()}); final rows are unchanged. Its {@code name()} is part of the
     *                  configuration a checkpoint must match. Replaces any condition given before.
     * @return this.
     */
    public PipelineBuilder earlyWhen(final WindowCondition condition)
    {
        this.earlyWhen = Objects.requireNonNull(condition, "condition");
        this.earlyWhenText = null;
        return this;
    }

    /**
     * The same as {@link #earlyWhen(WindowCondition)} with a condition read from text by
     * {@code WindowConditions.parse} when the configuration is concluded (numbers compared with sum, min and
     * max in the value column's unit), e.g. {@code sum>=5000.00} or {@code count>8 and max>100}. A comparison may
     * name a long or decimal column instead of a number, {@code sum>limit}: that column of the event being added.
     * With {@link #aggregates(String) named aggregates}, a comparison names an aggregate instead, its numbers at the
     * aggregate's scale ({@code declines>=3 and approved>1000.00}); {@code count} is the window's events unless an
     * aggregate has that name; an aggregate the window has no value for makes its comparison false.
     *
     * @param condition the condition's text.
     * @return this.
     */
    public PipelineBuilder earlyWhen(final String condition)
    {
        this.earlyWhenText = Objects.requireNonNull(condition, "condition");
        this.earlyWhen = null;
        return this;
    }

    /**
     * Early rows once per key, for sliding windows, where one event is in several windows of its key and so
     * can make several cross the early condition together: a window's early row is emitted only if no other
     * window of its key that overlaps it has emitted its early row and not fired yet. A window whose
     * condition first holds while one has emits no early row, ever. Final rows are unchanged. Part of the
     * configuration a checkpoint must match.
     *
     * @param enabled suppress early rows as above; needs {@link #earlyWhen(String)} and sliding windows whose
     *                slide is less than their size ({@link #conclude()} refuses it otherwise).
     * @return this.
     */
    public PipelineBuilder earlyOncePerKey(final boolean enabled)
    {
        this.earlyOncePerKey = enabled;
        return this;
    }

    /**
     * @param listener told of each event applied, on the engine thread (see {@link AppliedListener}).
     * @return this.
     */
    public PipelineBuilder onApplied(final AppliedListener listener)
    {
        this.applied = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * @param listener told once, as soon as the run fails, on the thread that saw the failure (see
     *                 {@link PipelineFailureListener}): how a following pipeline's failure reaches the
     *                 application without waiting for {@link Pipeline#awaitOffset} or {@link Pipeline#stop()}.
     * @return this.
     */
    public PipelineBuilder onFailure(final PipelineFailureListener listener)
    {
        this.failure = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * @param listener told of each checkpoint once it is durable, on the thread that wrote it (see
     *                 {@link CheckpointListener}): how a service ships checkpoints off the machine.
     * @return this.
     */
    public PipelineBuilder onCheckpoint(final CheckpointListener listener)
    {
        this.checkpointListener = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * @param listener told of each change of the run's {@link PipelineState} (starting, running, stopping,
     *                 stopped, or failed with the cause), in order, on the thread that makes the change (see
     *                 {@link PipelineStateListener}). A failure is told to it before the
     *                 {@link #onFailure(PipelineFailureListener) failure listener}.
     * @return this.
     */
    public PipelineBuilder onStateChange(final PipelineStateListener listener)
    {
        this.stateListener = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * @param factory makes the run's threads instead of Weir (its names, priorities, groups, daemon flag and
     *                uncaught-exception handler are kept as it sets them). Weir hands it a task whose
     *                {@code toString()} is the name Weir would give, {@code weir-<pipeline>-<run>-stage-<i>} or
     *                {@code weir-<pipeline>-<run>-publisher}; the task pins the thread if asked, and records any
     *                throwable escaping Weir's work as the run's failure, so the factory's uncaught-exception
     *                handler never sees one. Weir starts each thread once and waits for the stage threads to end
     *                when the run stops. Non-daemon threads keep the JVM alive until the pipeline is stopped. By
     *                default Weir makes daemon threads with those names.
     * @return this.
     */
    public PipelineBuilder threadFactory(final ThreadFactory factory)
    {
        this.threadFactory = Objects.requireNonNull(factory, "threadFactory");
        return this;
    }

    /**
     * Pin the stage threads to CPUs through OpenHFT Affinity: stage thread {@code i} (in the order of
     * {@link PipelineLayout}: one thread for FUSED and INLINE, assignment then aggregation for STAGED) to
     * {@code cpus[i]}; a stage thread without a CPU is not pinned. The INLINE layout reads the journal on its
     * stage thread, which is then pinned too; an agent ({@link Pipeline#asAgent()}) pins its thread to
     * {@code cpus[0]} in {@code onStart()}. A thread's affinity is set to exactly its CPU when it starts and
     * restored when it ends; Weir reserves nothing against other processes.
     *
     * @param cpus CPU numbers, 0-based, as in {@code /proc/cpuinfo}.
     * @return this.
     * @throws CpuPinningException (from {@link #conclude()}) if a CPU does not exist or affinity is not
     *                             supported here; a run whose thread the operating system refuses to pin fails
     *                             with it.
     */
    public PipelineBuilder pinStages(final int... cpus)
    {
        this.pinStages = cpus.clone();
        return this;
    }

    /**
     * Pin the publisher thread (which reads the journal in the FUSED and STAGED layouts; INLINE has none) to a
     * CPU, as {@link #pinStages(int...)} does.
     *
     * @param cpu a CPU number, or -1 for none.
     * @return this.
     */
    public PipelineBuilder pinPublisher(final int cpu)
    {
        this.pinPublisher = cpu;
        return this;
    }

    /**
     * @param factory makes the idle strategy of the journal publisher while it waits for new events in a
     *                following pipeline ({@link Pipeline#start()}); the default backs off from spinning to
     *                parking up to 1 ms. A busy-spinning or yielding strategy cuts latency at the cost of a
     *                core.
     * @return this.
     */
    public PipelineBuilder publisherIdle(final Supplier<IdleStrategy> factory)
    {
        this.publisherIdle = Objects.requireNonNull(factory, "publisherIdle");
        return this;
    }

    /**
     * @param pipelineLayout how stages map to threads; by default {@link PipelineLayout#FUSED} for a bounded
     *                       run ({@link Pipeline#runToEnd()}: fastest with two free cores) and
     *                       {@link PipelineLayout#INLINE} for a following one ({@link Pipeline#start()}:
     *                       one thread, lowest latency when the application's producers need the other
     *                       core). See BENCHMARKS.md.
     * @return this.
     */
    public PipelineBuilder layout(final PipelineLayout pipelineLayout)
    {
        this.layout = Objects.requireNonNull(pipelineLayout, "layout");
        return this;
    }

    /**
     * @param factory makes the Disruptor wait strategy of the consumer thread(s) of the
     *                {@link PipelineLayout#FUSED} and {@link PipelineLayout#STAGED} layouts.
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
     * @param enabled ignore an event whose {@code event_id} was already seen (ids are remembered until no
     *                window a duplicate could reach can still change).
     * @return this.
     */
    public PipelineBuilder dedupe(final boolean enabled)
    {
        this.dedupe = enabled;
        return this;
    }

    /**
     * @param events events between checkpoints, &gt; 0; a checkpoint is also taken at the end of a bounded
     *               input and when a following pipeline is closed.
     * @return this.
     */
    public PipelineBuilder checkpointEvery(final long events)
    {
        if (events <= 0)
        {
            throw new IllegalArgumentException("checkpoint interval must be > 0 events: " + events);
        }
        this.checkpointInterval = events;
        return this;
    }

    /**
     * @param enabled force the events journal (every event a checkpoint covers, whoever appended it) and the
     *                output journal to disk before each checkpoint is written, so a checkpoint, the events
     *                and the outputs it covers also survive a machine crash (costs fsyncs per checkpoint).
     * @return this.
     */
    public PipelineBuilder syncOnCheckpoint(final boolean enabled)
    {
        this.syncOnCheckpoint = enabled;
        return this;
    }

    /**
     * @param enabled also checkpoint, at once, after each heartbeat applied (besides every
     *                {@link #checkpointEvery(long)} events): for a journal whose heartbeats a takeover cannot
     *                read again (a Kafka partition's mirror), so the watermark a heartbeat gave is recorded in a
     *                checkpoint that covers it. Not part of the configuration a checkpoint must match.
     * @return this.
     */
    public PipelineBuilder checkpointEachHeartbeat(final boolean enabled)
    {
        this.checkpointEachHeartbeat = enabled;
        return this;
    }

    /**
     * A checkpoint taken at the end of a bounded run ({@link Pipeline#runToEnd()}) has its watermark at +infinity:
     * every event after it is late. By default a run that would resume from such a checkpoint and process events
     * after it is refused with {@link dev.weir.engine.resume.ResumeAfterEndException} before any event is
     * processed: a following run always, a bounded run when the journal holds events after the checkpoint.
     *
     * @param accepted true to resume from such a checkpoint all the same, every event after it late.
     * @return this.
     */
    public PipelineBuilder resumeAfterEnd(final boolean accepted)
    {
        this.resumeAfterEnd = accepted;
        return this;
    }

    /**
     * Recover from a checkpoint payload held in memory instead of the journal's checkpoints: the payload was
     * taken by a pipeline of the same configuration over another journal holding the same events at other
     * offsets, and this pipeline's journal holds, from its start, only the events after those it covers (with
     * the strings its state refers to defined, e.g. by a history base); its output journal is new. The engine
     * relocates the payload to this journal: the run resumes from the journal's first event, and numbers its
     * outputs after those the payload covers. Nothing is written to disk before the run's first checkpoint. The
     * journal's own checkpoints, if any, are ignored.
     *
     * @param payload the checkpoint payload, or null to recover from the journal's checkpoints (the default).
     * @return this.
     */
    public PipelineBuilder recoverFrom(final CheckpointPayload payload)
    {
        this.recoverFrom = payload;
        return this;
    }

    /**
     * Process a range of the journal as a batch from a clean state: no output journal, no checkpoints;
     * results and late events go to the listeners only.
     *
     * @param from first offset to process, or -1 for the journal's first.
     * @param to   last offset to process (inclusive), or {@link Long#MAX_VALUE} for the journal's last.
     * @return this.
     */
    public PipelineBuilder replayRange(final long from, final long to)
    {
        this.durableOutput = false;
        this.fromOffset = from;
        this.toOffset = to;
        return this;
    }

    /**
     * Apply the journal's retention while following ({@link Pipeline#start()}, {@link Pipeline#asAgent()}): on a
     * thread of the run's own ({@code weir-<pipeline>-<run>-retention}, made like its other threads), never on
     * a thread that processes events, one {@code JournalRetention.applyIfFree} step at least every
     * min(roll cycle / 4, 10 s) of the journal clock, removing every whole roll cycle of the events and output
     * journals that ended more than {@code keep} ago and that no holder of the retention floor (each pipeline's
     * newest valid checkpoint, PostgreSQL deliveries) still needs. A step that fails is logged at WARN and tried
     * again at the next period; it never stops the run. {@link Pipeline#stop()} ends the thread, waiting for a
     * step in progress. A bounded run ({@link Pipeline#runToEnd()}) applies none. Its counters are in the
     * metrics file ({@code CounterTypes.RETENTION_STEPS} and on).
     *
     * @param keep    how long a cycle is kept after it ends, &gt;= 0.
     * @param archive where removed cycles are moved ({@code ARCHIVE/events/}, {@code ARCHIVE/results/}, ...), or
     *                null to delete them.
     * @return this.
     * @throws IllegalArgumentException if {@code keep} is negative.
     */
    public PipelineBuilder retention(final Duration keep, final Path archive)
    {
        Objects.requireNonNull(keep, "keep");
        if (keep.isNegative())
        {
            throw new IllegalArgumentException("a retention cannot be negative: " + keep);
        }
        this.retentionMillis = keep.toMillis();
        this.retentionArchive = archive;
        return this;
    }

    /**
     * Deliver the outputs into {@code sink} while the pipeline runs ({@link dev.weir.engine.delivery.ContinuousDelivery}),
     * on a thread of the run's own ({@code weir-<pipeline>-<run>-delivery}, made like its other threads), never on a
     * thread that processes events: what is new every {@code interval}, with backoff while the sink's target is
     * unavailable, and once more when the run stops ({@link Pipeline#stop()}, or the end of {@link Pipeline#runToEnd()}),
     * waiting at most {@value dev.weir.engine.delivery.ContinuousDelivery#STOP_GRACE_MS} ms for it (then the sink is
     * aborted). A refusal stops the delivery, not the run. The pipeline never closes the sink: close it after the
     * pipeline stopped. Needs durable outputs.
     *
     * @param sink     where the outputs go.
     * @param interval how often, at least 1 ms.
     * @param listener told of retries, a refusal and what is pending at the stop.
     * @return this.
     * @throws IllegalArgumentException if the interval is under 1 ms.
     */
    public PipelineBuilder deliverContinuously(final OutputSink sink, final Duration interval, final DeliveryListener listener)
    {
        Objects.requireNonNull(interval, "interval");
        if (interval.toMillis() < 1)
        {
            throw new IllegalArgumentException("a delivery interval must be at least 1 ms: " + interval);
        }
        this.deliverySink = Objects.requireNonNull(sink, "sink");
        this.deliveryIntervalMillis = interval.toMillis();
        this.deliveryListener = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * {@link #deliverContinuously(OutputSink, Duration, DeliveryListener)} with a listener that does nothing (retries and
     * a refusal are logged all the same).
     *
     * @param sink     where the outputs go.
     * @param interval how often, at least 1 ms.
     * @return this.
     */
    public PipelineBuilder deliverContinuously(final OutputSink sink, final Duration interval)
    {
        return deliverContinuously(sink, interval, new DeliveryListener()
        {
        });
    }

    /**
     * Append heartbeats while the journal is quiet, when following ({@link Pipeline#start()},
     * {@link Pipeline#asAgent()}), so the last windows of a stream that stopped still close: on a thread of
     * the run's own ({@code weir-<pipeline>-<run>-heartbeats}), which tails the journal and, once nothing has
     * been appended for {@code timeout} of wall time, appends a heartbeat whose event time is the newest it
     * has read plus the wall time since it read it; then again every {@code timeout} while the journal stays
     * quiet. Nothing before the first event. A heartbeat is skipped while another appender holds the
     * journal's lock (an ingest, an {@code EventJournal}, this pipeline's {@link Pipeline#append}): that
     * appender is active. A heartbeat is journal content, so a resume or a replay applies it where it is. If an
     * append fails, the heartbeats stop and the run goes on: see {@link #onHeartbeatsStopped(Consumer)}.
     * {@link Pipeline#stop()} ends them first. A bounded run ({@link Pipeline#runToEnd()}) appends none.
     *
     * @param timeout how long the journal stays quiet before a heartbeat, &gt; 0 (ms are used).
     * @return this.
     * @throws IllegalArgumentException if {@code timeout} is under a millisecond.
     */
    public PipelineBuilder idleTimeout(final Duration timeout)
    {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.toMillis() <= 0)
        {
            throw new IllegalArgumentException("an idle timeout must be at least 1 ms: " + timeout);
        }
        this.idleTimeoutMillis = timeout.toMillis();
        return this;
    }

    /**
     * @param listener told once, on the heartbeats' thread, when the heartbeats of {@link #idleTimeout(Duration)}
     *                 stop because the journal could not be read or a heartbeat appended; the run goes on
     *                 without them. The failure is logged at WARN (logger
     *                 {@code dev.weir.engine.source.IdleHeartbeats}) in any case.
     * @return this.
     */
    public PipelineBuilder onHeartbeatsStopped(final Consumer<RuntimeException> listener)
    {
        this.heartbeatsStopped = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * @param column the column whose values key the windows (default {@code key}): a string, long or decimal
     *               column; checked against the journal's schema by {@link #conclude()}.
     * @return this.
     */
    public PipelineBuilder keyColumn(final String column)
    {
        this.keyColumn = Objects.requireNonNull(column, "keyColumn");
        return this;
    }

    /**
     * Key the windows by several columns together, as {@code GROUP BY merchant, country} does: each distinct
     * combination of their values is one key.
     *
     * @param columns one or more columns of any type, in the order results show them; checked against the
     *                journal's schema by {@link #conclude()}.
     * @return this.
     */
    public PipelineBuilder keyColumns(final String... columns)
    {
        if (columns.length == 0)
        {
            throw new IllegalArgumentException("keyColumns needs at least one column");
        }
        this.keyColumn = String.join(",", columns);
        return this;
    }

    /**
     * @param column the long or decimal column that count, sum, min, max and the user aggregation take as
     *               the value (default {@code value}; a decimal's unscaled long); checked against the journal's
     *               schema by {@link #conclude()}.
     * @return this.
     */
    public PipelineBuilder valueColumn(final String column)
    {
        this.valueColumn = Objects.requireNonNull(column, "valueColumn");
        this.valueExpression = null;
        this.valueGiven = true;
        return this;
    }

    /**
     * @param expression the value count, sum, min, max and the user aggregations take: a long or decimal
     *                   column's name (the same as {@link #valueColumn(String)}), or an arithmetic expression
     *                   over such columns, e.g. {@code amount - fee} (its scale, for printing, is the
     *                   expression's); compiled by {@link #conclude()}, which throws an
     *                   {@code ExpressionException} with the position if it does not compile. Its normalised
     *                   text is part of the configuration a checkpoint must match.
     * @return this.
     */
    public PipelineBuilder value(final String expression)
    {
        return valueColumn(expression);
    }

    /**
     * @param value a value computed in Java from each event (allocation-free; called on the source's thread).
     * @param name  its name in the configuration string, which a checkpoint must match.
     * @return this.
     */
    public PipelineBuilder value(final EventValue value, final String name)
    {
        this.valueExpression = Objects.requireNonNull(value, "value");
        this.valueColumn = Objects.requireNonNull(name, "name");
        this.valueGiven = true;
        return this;
    }

    /**
     * Keep only the events that match a filter; the others still move the watermark (the watermark belongs to
     * the journal), and are counted as {@code filtered}, nothing else. Replaces any filter given before.
     *
     * @param expression the filter, e.g. {@code channel = 'online' and country in ('FR','DE')}; compiled by
     *                   {@link #conclude()} (an {@code ExpressionException} with the position if it does not
     *                   compile), and again for each run, on its source's thread. Its normalised text is part
     *                   of the configuration a checkpoint must match.
     * @return this.
     */
    public PipelineBuilder where(final String expression)
    {
        this.filterText = Objects.requireNonNull(expression, "where");
        this.filter = null;
        this.filterName = null;
        return this;
    }

    /**
     * The same as {@link #where(String)} with a filter written in Java.
     *
     * @param eventFilter called on the source's thread for each event (allocation-free; one owner thread, so a
     *                    configuration with one runs one pipeline at a time).
     * @param name        its name in the configuration string, which a checkpoint must match.
     * @return this.
     */
    public PipelineBuilder where(final EventFilter eventFilter, final String name)
    {
        this.filter = Objects.requireNonNull(eventFilter, "filter");
        this.filterName = Objects.requireNonNull(name, "name");
        this.filterText = null;
        return this;
    }

    /**
     * Join a reference table of the journal, as of each event's time: an event joins the row of its key with the
     * greatest valid-from at or before the event's time, among the rows appended to the journal before the event
     * (of two rows of one key with the same valid-from, the later appended); a tombstone there means no row. The
     * event's key is its columns named like the table's key columns. Expressions then name the table's columns
     * {@code TABLE.COLUMN}. Several joins may be given, each of another table. Checked by {@link #conclude()}: the
     * table exists in the journal, the key columns exist in the events, with the same types.
     *
     * @param table the table's name.
     * @return this.
     */
    public PipelineBuilder join(final String table)
    {
        return join(table, new String[0]);
    }

    /**
     * The same as {@link #join(String)}, the event's key read from other columns.
     *
     * @param table        the table's name.
     * @param eventColumns the event columns for the table's key columns, in the table's key order (none: the
     *                     columns named like the key's).
     * @return this.
     */
    public PipelineBuilder join(final String table, final String... eventColumns)
    {
        final String[] join = new String[eventColumns.length + 1];
        join[0] = Objects.requireNonNull(table, "table");
        for (int i = 0; i < eventColumns.length; i++)
        {
            join[i + 1] = Objects.requireNonNull(eventColumns[i], "eventColumns");
        }
        joins.add(join);
        return this;
    }

    /**
     * @param policy what to do with an event a join finds no row for: {@link JoinMissing#DROP} (the default;
     *               counted as {@code unmatched}, it still moves the watermark) or {@link JoinMissing#KEEP}
     *               (the table's columns read their declared defaults).
     * @return this.
     */
    public PipelineBuilder joinMissing(final JoinMissing policy)
    {
        this.joinMissing = Objects.requireNonNull(policy, "joinMissing");
        return this;
    }

    /**
     * Name the pipeline, so that several can process one journal, each with its own state: its checkpoints,
     * output journal (and its single-appender lock) and metrics file are those of
     * {@link JournalDirectory#pipeline(String)}, under {@code pipelines/NAME/} of the journal, while the events
     * are the journal's, shared. The default, {@value JournalDirectory#DEFAULT_PIPELINE}, keeps them at the
     * journal's root.
     *
     * @param name {@value JournalDirectory#DEFAULT_PIPELINE}, or a name matching
     *             {@value JournalDirectory#PIPELINE_NAME_RULE}.
     * @return this.
     * @throws IllegalArgumentException if the name does not follow the rule.
     */
    public PipelineBuilder pipeline(final String name)
    {
        this.pipeline = JournalDirectory.checkPipelineName(name);
        return this;
    }

    /**
     * Conclude the configuration: apply the defaults, validate every setting and their combination, and
     * open the journal directory. Reads no checkpoint.
     *
     * @return the concluded, immutable configuration.
     * @throws IllegalStateException    if a required setting is missing or two settings conflict.
     * @throws IllegalArgumentException if open aligned windows could not be told apart: (out-of-orderness +
     *                                  allowed lateness + size) / slide must stay below 2^31; if a column is
     *                                  missing (the key, the value, or one an aggregation reads), or there are
     *                                  more than {@link Aggregation#MAX_AGGREGATIONS} aggregations; an
     *                                  {@code early condition} that does not parse
     *                                  ({@code ConditionSyntaxException}, with its position); early rows once
     *                                  per key without an early condition or with windows that do not overlap;
     *                                  named aggregates with a value or user aggregations, or that do not bind to
     *                                  the columns, or one named like a key column.
     * @throws dev.weir.journal.JvmFlagsMissingException if this JVM lacks flags Chronicle needs
     *                                                   ({@link dev.weir.journal.JvmFlags}): checked when the
     *                                                   journal is opened, before anything is read or written.
     */
    public PipelineConfiguration conclude()
    {
        return new PipelineConfiguration(this, null);
    }

    /**
     * Conclude the configuration for events of a schema, without a journal: for running the window stages
     * in memory ({@link InMemoryRun}), e.g. in a unit test. Validates exactly as {@link #conclude()} does,
     * against {@code schema} instead of a journal's. The journal, if one was set, is neither opened nor read,
     * nothing is durable (no output journal, no checkpoints: {@link PipelineConfiguration#describe()} is
     * still the string a checkpoint would record), and the settings about threads and ranges (layout, wait
     * and idle strategies, ring size, replay range, pipeline name) play no part in an in-memory run. Does
     * not check the JVM's flags: nothing of Chronicle is loaded.
     *
     * @param schema the columns of the events, e.g. {@code JournalSchema.parse("card:string,amount:decimal(2)")}.
     * @return the concluded, immutable configuration; its {@link PipelineConfiguration#build()} throws
     *         {@link IllegalStateException}.
     * @throws IllegalStateException    as {@link #conclude()}, except that no journal is required.
     * @throws IllegalArgumentException as {@link #conclude()}.
     */
    public PipelineConfiguration concludeFor(final JournalSchema schema)
    {
        return new PipelineConfiguration(this, Objects.requireNonNull(schema, "schema"));
    }

    /**
     * {@link #concludeFor(JournalSchema)}, with the reference tables the joins read: what a journal of that schema
     * and those tables would conclude. How an application checks a configuration with joins before the journal
     * exists (a Kafka instance, before its partitions' journals are made).
     *
     * @param schema the events' columns.
     * @param tables the tables a {@link #join} may name.
     * @return the configuration.
     * @throws IllegalArgumentException if the settings are not valid for that schema and those tables.
     */
    public PipelineConfiguration concludeFor(final JournalSchema schema, final List<TableDefinition> tables)
    {
        return new PipelineConfiguration(this, Objects.requireNonNull(schema, "schema"), List.copyOf(tables));
    }

    /**
     * Conclude the configuration and build a pipeline that resumes from the journal's newest valid
     * checkpoint: the same as {@code conclude().build()}.
     *
     * @return the pipeline.
     * @throws dev.weir.journal.JvmFlagsMissingException if this JVM lacks flags Chronicle needs
     *                                                   ({@link dev.weir.journal.JvmFlags}).
     */
    public Pipeline build()
    {
        return conclude().build();
    }

    /**
     * Build the pipeline as a service to own: one object to start, await and close, from any thread.
     *
     * @return the service, not started.
     * @throws dev.weir.journal.JvmFlagsMissingException if this JVM lacks flags Chronicle needs
     *                                                   ({@link dev.weir.journal.JvmFlags}).
     */
    public PipelineService buildService()
    {
        return new PipelineService(build());
    }
}
