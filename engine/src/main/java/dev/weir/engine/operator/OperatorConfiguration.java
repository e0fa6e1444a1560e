package dev.weir.engine.operator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

import dev.weir.engine.aggregate.Aggregation;
import dev.weir.engine.aggregate.BoundAggregates;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.state.WindowSlots;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.time.Lateness;
import dev.weir.engine.window.AlignedWindows;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.schema.JournalSchema;

/**
 * What the window operators compute: the window spec, out-of-orderness {@code D}, allowed lateness
 * {@code A}, the late policy, dedupe and user aggregations or named aggregates; plus how much state to pre-size for. Built
 * once with {@link #builder(WindowSpec)}, validated once by {@link Builder#build()}, and then the one
 * source of both stages: {@link #newAssigner()} and {@link #newAggregator(ResultListener, LateListener)}.
 * <p>
 * {@link #describe()} is the configuration string a checkpoint stores and a recovery compares: two
 * configurations that describe alike compute the same results from the same journal; named aggregates are the
 * exception: the pipeline's configuration string describes them, after its columns (their text names columns).
 * <p>
 * Immutable and thread-safe; the {@link Builder} is not.
 */
public final class OperatorConfiguration
{
    /** The fewest open windows the state is pre-sized for. */
    public static final int MIN_INITIAL_WINDOWS = 16;

    private final WindowSpec window;
    private final long outOfOrderness;
    private final Lateness lateness;
    private final LatePolicy latePolicy;
    private final boolean dedupe;
    private final List<Aggregation> aggregations;
    /** The named aggregates, or null without them. */
    private final BoundAggregates named;
    private final JournalSchema schema;
    private final int initialWindows;
    private final int indexRingSlides;
    private final boolean panesAllowed;
    private final boolean emitUpdates;
    private final WindowCondition earlyWhen;
    private final boolean earlyOncePerKey;
    private final String description;

    private OperatorConfiguration(final Builder builder)
    {
        this.window = Objects.requireNonNull(builder.window, "window");
        this.outOfOrderness = checkDuration("out-of-orderness", builder.outOfOrderness);
        this.lateness = new Lateness(checkDuration("allowed lateness", builder.allowedLateness));
        this.latePolicy = Objects.requireNonNull(builder.latePolicy, "latePolicy");
        this.dedupe = builder.dedupe;
        this.aggregations = Collections.unmodifiableList(new ArrayList<>(builder.aggregations));
        this.named = builder.named;
        if (named != null && !aggregations.isEmpty())
        {
            throw new IllegalArgumentException("named aggregates and user aggregations exclude each other");
        }
        this.schema = Objects.requireNonNull(builder.schema, "schema");
        if (aggregations.size() > Aggregation.MAX_AGGREGATIONS)
        {
            throw new IllegalArgumentException("at most " + Aggregation.MAX_AGGREGATIONS + " aggregations per pipeline: " + aggregations.size());
        }
        // the state never holds more than WindowSlots.MAX_CAPACITY windows: sizes derived from this fit an int
        this.initialWindows = (int)Math.min(WindowSlots.MAX_CAPACITY, Math.max(MIN_INITIAL_WINDOWS, builder.initialWindows));
        if (builder.indexRingSlides < 0)
        {
            throw new IllegalArgumentException("index ring slides must be >= 0: " + builder.indexRingSlides);
        }
        this.indexRingSlides = builder.indexRingSlides;
        this.panesAllowed = builder.panes;
        this.emitUpdates = builder.emitUpdates;
        this.earlyWhen = builder.earlyWhen;
        this.earlyOncePerKey = builder.earlyOncePerKey;
        if (earlyOncePerKey)
        {
            checkEarlyOncePerKey(window, earlyWhen);
        }
        if (window instanceof AlignedWindows)
        {
            checkHorizon((AlignedWindows)window, outOfOrderness, lateness.allowedLateness());
        }
        this.description = window.describe() + " outOfOrderness=" + outOfOrderness + " allowedLateness=" + lateness.allowedLateness()
            + " late=" + latePolicy + " dedupe=" + dedupe + describe(aggregations)
            + (emitUpdates ? " emit=updates" : "") + (earlyWhen != null ? " early=" + earlyWhen.name() : "")
            + (earlyOncePerKey ? " earlyOnce=key" : "");
    }

    /**
     * @param aggregations the user aggregations.
     * @return what the configuration string adds for them: nothing for none, {@code " aggregate=NAME"} for
     *         one (the form of before several existed), {@code " aggregates=NAME+NAME..."} for several.
     */
    private static String describe(final List<Aggregation> aggregations)
    {
        if (aggregations.isEmpty())
        {
            return "";
        }
        if (aggregations.size() == 1)
        {
            return " aggregate=" + aggregations.get(0).name();
        }
        final StringBuilder b = new StringBuilder(" aggregates=");
        for (int i = 0; i < aggregations.size(); i++)
        {
            b.append(i == 0 ? "" : "+").append(aggregations.get(i).name());
        }
        return b.toString();
    }

    /**
     * Early rows once per key suppress the early row of a window that overlaps another of its key: only
     * sliding windows whose slide is less than their size overlap.
     *
     * @throws IllegalArgumentException without an early condition, or with windows of a key that never overlap.
     */
    private static void checkEarlyOncePerKey(final WindowSpec window, final WindowCondition earlyWhen)
    {
        if (earlyWhen == null)
        {
            throw new IllegalArgumentException("early rows once per key need an early condition");
        }
        final String problem = earlyOncePerKeyProblem(window);
        if (problem != null)
        {
            throw new IllegalArgumentException("early rows once per key need overlapping windows: " + problem);
        }
    }

    /**
     * The window check of {@link Builder#earlyOncePerKey(boolean)}, for a command line to check its flags
     * before it does anything.
     *
     * @param window a window spec.
     * @return null if its windows of a key overlap (sliding, with a slide less than the size), else why early
     *         rows once per key do not apply to it.
     */
    public static String earlyOncePerKeyProblem(final WindowSpec window)
    {
        if (window instanceof AlignedWindows && ((AlignedWindows)window).slide() < ((AlignedWindows)window).size())
        {
            return null;
        }
        return "the windows of a key never overlap under " + window.describe() + " (only sliding windows whose slide is less than "
            + "their size do), so each crossing already gives one early row";
    }

    /**
     * @param window tumbling, sliding or session windows.
     * @return a builder with the defaults: {@code D = 0}, {@code A = 0}, {@link LatePolicy#DROP}, no dedupe,
     *         no user aggregation, {@value #MIN_INITIAL_WINDOWS} initial windows.
     */
    public static Builder builder(final WindowSpec window)
    {
        return new Builder(window);
    }

    /**
     * @return a new first stage: the watermark and the assignment of events to their non-late windows.
     */
    public WindowAssigner newAssigner()
    {
        return new WindowAssigner(window, outOfOrderness, lateness);
    }

    /**
     * @param results receives results.
     * @param late    receives skipped events under {@link LatePolicy#SIDE}.
     * @return a new, empty second stage: aligned or session windows as the spec says.
     */
    public WindowAggregator newAggregator(final ResultListener results, final LateListener late)
    {
        Objects.requireNonNull(results, "results");
        Objects.requireNonNull(late, "late");
        if (window instanceof AlignedWindows)
        {
            return new AlignedWindowAggregator(this, (AlignedWindows)window, results, late);
        }
        return new SessionWindowAggregator(this, (SessionWindows)window, results, late);
    }

    /**
     * @return the configuration string a checkpoint stores and must match to be resumed, e.g.
     *         {@code tumbling:10000 outOfOrderness=0 allowedLateness=0 late=DROP dedupe=false}.
     */
    public String describe()
    {
        return description;
    }

    /** @return the window spec. */
    public WindowSpec window()
    {
        return window;
    }

    /** @return D, ms. */
    public long outOfOrderness()
    {
        return outOfOrderness;
    }

    /** @return the lateness rules (A). */
    public Lateness lateness()
    {
        return lateness;
    }

    /** @return what is done with skipped events. */
    public LatePolicy latePolicy()
    {
        return latePolicy;
    }

    /** @return true if events whose id was already seen are ignored. */
    public boolean dedupe()
    {
        return dedupe;
    }

    /** @return the first user aggregation kept per window, or null without one. */
    public Aggregation aggregation()
    {
        return aggregations.isEmpty() ? null : aggregations.get(0);
    }

    /** @return the user aggregations kept per window, in order; empty without one. */
    public List<Aggregation> aggregations()
    {
        return aggregations;
    }

    /** @return the named aggregates, or null without them. */
    public BoundAggregates namedAggregates()
    {
        return named;
    }

    /**
     * @return what each window's slot keeps state for, in order: fresh state machines of the named aggregates (one
     *         set per aggregator), else the user aggregations.
     */
    public List<Aggregation> newSlotAggregations()
    {
        return named != null ? named.newAggregations() : aggregations;
    }

    /** @return true if every event added to an open window also emits an update row for it. */
    public boolean emitUpdates()
    {
        return emitUpdates;
    }

    /** @return the condition on which an open window emits its one early row, or null for none. */
    public WindowCondition earlyWhen()
    {
        return earlyWhen;
    }

    /**
     * @return true if a window's early row is suppressed while an overlapping window of its key has emitted
     *         its early row and not fired yet (see {@link Builder#earlyOncePerKey(boolean)}).
     */
    public boolean earlyOncePerKey()
    {
        return earlyOncePerKey;
    }

    /** @return the schema of the journal's events, whose columns user aggregations that read them see. */
    public JournalSchema schema()
    {
        return schema;
    }

    /** @return true if a user aggregation reads the events' columns, which the source must then copy. */
    public boolean readsColumns()
    {
        for (final Aggregation a : aggregations)
        {
            if (a.readsColumns())
            {
                return true;
            }
        }
        return false;
    }

    /** @return open windows to pre-size for, {@value #MIN_INITIAL_WINDOWS} to {@link WindowSlots#MAX_CAPACITY}. */
    public int initialWindows()
    {
        return initialWindows;
    }

    /**
     * Sliding windows keep their aggregates in slide-long panes (each event added once, to its pane, and a window's
     * panes combined when it fires) when that gives the very rows, counters and checkpoints of one aggregate per
     * window and is faster: the size a multiple of the slide and larger; no user aggregations (whose merge is not
     * promised to be exact) and no named aggregates (whose sums' wraps are counted per window); no update rows and no
     * early condition (which read every window at each event). Decided once, from the configuration alone; not part
     * of {@link #describe()}, so the configuration string a checkpoint must match is the same on either path.
     *
     * @return true if the aligned windows' aggregation keeps panes.
     */
    public boolean panes()
    {
        if (!panesAllowed || !(window instanceof AlignedWindows))
        {
            return false;
        }
        final AlignedWindows aligned = (AlignedWindows)window;
        return aligned.size() > aligned.slide() && aligned.size() % aligned.slide() == 0
            && aggregations.isEmpty() && named == null && !emitUpdates && earlyWhen == null;
    }

    /** @return slide indexes per key the aligned windows' index holds before its overflow map, or 0 for enough. */
    int indexRingSlides()
    {
        return indexRingSlides;
    }

    @Override
    public String toString()
    {
        return description;
    }

    /**
     * Check that open windows' starts can be told apart by their slide index modulo 2^32.
     *
     * @throws IllegalArgumentException if {@code (D + A + size) / slide} is not below 2^31.
     */
    private static void checkHorizon(final AlignedWindows windows, final long outOfOrderness, final long allowedLateness)
    {
        final double horizon = ((double)outOfOrderness + allowedLateness + windows.size()) / windows.slide();
        if (horizon >= (1L << 31) - 2)
        {
            throw new IllegalArgumentException(
                "(out-of-orderness + allowed lateness + size) / slide must be < 2^31 windows: " + (long)horizon);
        }
    }

    /**
     * The range check of a duration setting, shared with {@code PipelineBuilder}'s setters (which check as
     * they are called).
     *
     * @param name   the setting's name, for the message.
     * @param millis its value.
     * @return the value.
     * @throws IllegalArgumentException if it is not between 0 and {@link WindowSpec#MAX_DURATION}.
     */
    public static long checkDuration(final String name, final long millis)
    {
        if (millis < 0 || millis > WindowSpec.MAX_DURATION)
        {
            throw new IllegalArgumentException(name + " must be between 0 and " + WindowSpec.MAX_DURATION + " ms: " + millis);
        }
        return millis;
    }

    /**
     * Collects an {@link OperatorConfiguration}; {@link #build()} validates it. Not thread-safe.
     */
    public static final class Builder
    {
        private final WindowSpec window;
        private long outOfOrderness;
        private long allowedLateness;
        private LatePolicy latePolicy = LatePolicy.DROP;
        private boolean dedupe;
        private final List<Aggregation> aggregations = new ArrayList<>();
        private BoundAggregates named;
        private JournalSchema schema = JournalSchema.DEFAULT;
        private int initialWindows = MIN_INITIAL_WINDOWS;
        private int indexRingSlides;
        private boolean panes = true;
        private boolean emitUpdates;
        private WindowCondition earlyWhen;
        private boolean earlyOncePerKey;

        private Builder(final WindowSpec window)
        {
            this.window = window;
        }

        /**
         * @param millis D, how far behind the newest event time events may arrive without being late,
         *               0 to {@link WindowSpec#MAX_DURATION}.
         * @return this.
         */
        public Builder outOfOrderness(final long millis)
        {
            this.outOfOrderness = millis;
            return this;
        }

        /**
         * @param millis A, how long after its end a window still accepts events (and re-fires), 0 to
         *               {@link WindowSpec#MAX_DURATION}.
         * @return this.
         */
        public Builder allowedLateness(final long millis)
        {
            this.allowedLateness = millis;
            return this;
        }

        /**
         * @param policy what to do with events skipped as late.
         * @return this.
         */
        public Builder latePolicy(final LatePolicy policy)
        {
            this.latePolicy = policy;
            return this;
        }

        /**
         * @param enabled ignore an event whose id was already seen.
         * @return this.
         */
        public Builder dedupe(final boolean enabled)
        {
            this.dedupe = enabled;
            return this;
        }

        /**
         * @param userAggregation the one user aggregation to keep per window (merged when sessions merge), or
         *                        null for none; replaces any given before.
         * @return this.
         */
        public Builder aggregation(final Aggregation userAggregation)
        {
            aggregations.clear();
            if (userAggregation != null)
            {
                aggregations.add(userAggregation);
            }
            return this;
        }

        /**
         * @param userAggregations the user aggregations to keep per window, in order (each merged when
         *                         sessions merge); replaces any given before.
         * @return this.
         */
        public Builder aggregations(final List<Aggregation> userAggregations)
        {
            aggregations.clear();
            for (final Aggregation a : userAggregations)
            {
                aggregations.add(Objects.requireNonNull(a, "aggregation"));
            }
            return this;
        }

        /**
         * @param namedAggregates the named aggregates to keep per window instead of user aggregations (each result
         *                        then carries their values and a presence mask), or null for none; not part of
         *                        {@link #describe()}: the pipeline's configuration string carries them.
         * @return this.
         */
        public Builder namedAggregates(final BoundAggregates namedAggregates)
        {
            this.named = namedAggregates;
            return this;
        }

        /**
         * @param enabled after each event added to a window whose end the watermark has not passed, emit an
         *                {@link dev.weir.journal.codec.ResultKind#UPDATE} row with its current aggregate (part of
         *                {@link #describe()} when on: {@code emit=updates}).
         * @return this.
         */
        public Builder emitUpdates(final boolean enabled)
        {
            this.emitUpdates = enabled;
            return this;
        }

        /**
         * @param condition the condition on which an open window emits its one
         *                  {@link dev.weir.journal.codec.ResultKind#EARLY} row, or null for none (part of
         *                  {@link #describe()} when set: {@code early=NAME}).
         * @return this.
         */
        public Builder earlyWhen(final WindowCondition condition)
        {
            this.earlyWhen = condition;
            return this;
        }

        /**
         * Early rows once per key: when a window's early condition first holds, its early row is emitted only if
         * no other window of its key that overlaps it has emitted its early row and not fired yet (its end is
         * after the watermark the event was judged against); otherwise the window is marked and never emits
         * one. Windows still fire, and final rows are unchanged. Part of {@link #describe()} when on:
         * {@code earlyOnce=key}.
         *
         * @param enabled suppress early rows as above; needs an early condition and sliding windows whose slide
         *                is less than their size ({@link #build()} refuses it otherwise).
         * @return this.
         */
        public Builder earlyOncePerKey(final boolean enabled)
        {
            this.earlyOncePerKey = enabled;
            return this;
        }

        /**
         * @param journalSchema the schema of the journal's events (default {@link JournalSchema#DEFAULT}): the
         *                      columns user aggregations that read them see; not part of {@link #describe()}.
         * @return this.
         */
        public Builder schema(final JournalSchema journalSchema)
        {
            this.schema = journalSchema;
            return this;
        }

        /**
         * @param windows open (key, window) states to pre-size for; raised to
         *                {@value OperatorConfiguration#MIN_INITIAL_WINDOWS} and capped at {@link WindowSlots#MAX_CAPACITY}.
         * @return this.
         */
        public Builder initialWindows(final int windows)
        {
            this.initialWindows = windows;
            return this;
        }

        /**
         * For tests: results are the same whatever the value; not part of {@link #describe()}.
         *
         * @param slides slide indexes per key the aligned windows' index holds before its overflow map, or 0
         *               (the default) for enough for every window a key can have open; a small value forces
         *               the overflow path.
         * @return this.
         */
        public Builder indexRingSlides(final int slides)
        {
            this.indexRingSlides = slides;
            return this;
        }

        /**
         * For tests and comparisons: results are the same whatever the value; not part of {@link #describe()}.
         *
         * @param allowed true (the default) to keep sliding windows' aggregates in panes where
         *                {@link OperatorConfiguration#panes()} allows it, false for one aggregate per window always.
         * @return this.
         */
        public Builder panes(final boolean allowed)
        {
            this.panes = allowed;
            return this;
        }

        /**
         * @return the configuration.
         * @throws NullPointerException     if the window spec or the late policy is missing.
         * @throws IllegalArgumentException if a duration is out of range, or aligned windows' starts within
         *                                  {@code D + A + size} of each other span 2^31 slides or more, or early
         *                                  rows once per key are asked for without an early condition or with
         *                                  windows of a key that never overlap.
         */
        public OperatorConfiguration build()
        {
            return new OperatorConfiguration(this);
        }
    }
}
