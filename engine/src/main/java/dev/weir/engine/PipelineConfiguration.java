package dev.weir.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import java.util.function.Supplier;

import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;
import dev.weir.engine.aggregate.AggregateInputs;
import dev.weir.engine.aggregate.Aggregation;
import dev.weir.engine.aggregate.BoundAggregates;
import dev.weir.engine.checkpoint.CheckpointListener;
import dev.weir.engine.checkpoint.CheckpointStore;
import dev.weir.engine.delivery.ContinuousDelivery;
import dev.weir.engine.delivery.DeliveryListener;
import dev.weir.engine.delivery.OutputSink;
import dev.weir.engine.emit.AppliedListener;
import dev.weir.engine.emit.KeyText;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.expr.ColumnProjection;
import dev.weir.engine.expr.EventFilter;
import dev.weir.engine.expr.ExpressionColumns;
import dev.weir.engine.expr.Expressions;
import dev.weir.engine.expr.StringIds;
import dev.weir.engine.expr.StringTexts;
import dev.weir.engine.join.AsOfJoin;
import dev.weir.engine.join.Horizon;
import dev.weir.engine.join.JoinMissing;
import dev.weir.engine.join.JoinSpec;
import dev.weir.engine.join.JoinedColumns;
import dev.weir.engine.join.TableJoins;
import dev.weir.engine.operator.OperatorConfiguration;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.operator.WindowCondition;
import dev.weir.engine.operator.WindowConditions;
import dev.weir.engine.resume.ResumeAfterEndException;
import dev.weir.engine.source.JournalPublisher;
import dev.weir.engine.source.SlotFiller;
import dev.weir.engine.window.AlignedWindows;
import dev.weir.engine.window.SessionWindows;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JvmFlags;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import org.agrona.concurrent.IdleStrategy;

/**
 * A pipeline's configuration, concluded once by {@link PipelineBuilder#conclude()}: defaults applied,
 * every setting and combination validated (the horizon of aligned windows included), the journal
 * opened, and the configuration string a checkpoint must match computed. One concluded by
 * {@link PipelineBuilder#concludeFor} has no journal, only a schema: validated alike, it cannot
 * {@link #build()} a pipeline, and runs its window stages in memory only ({@link InMemoryRun}). Nothing is read from the
 * journal's checkpoints until {@link #recover()}; so a command can validate its flags through this
 * without building a pipeline, then recover once and {@link #build(Recovery)} it.
 * <p>
 * Immutable; the listeners and factories it holds are the application's. Safe to share between threads,
 * but a {@link Pipeline} built from it runs once.
 */
public final class PipelineConfiguration
{
    /** Checkpoints kept in the journal's checkpoint directory; older ones are deleted as new ones land. */
    public static final int CHECKPOINTS_KEPT = 3;
    /** Why a value is not given beside named aggregates ({@link PipelineBuilder#aggregates(String)}). */
    public static final String VALUE_WITH_AGGREGATES = "--value: with --aggregates, name the value in an aggregate, e.g. total=sum(amount)";
    /** Why user aggregations are not given beside named aggregates. */
    public static final String AGGREGATE_AND_AGGREGATES = "--aggregate and --aggregates exclude each other: name the aggregation in --aggregates";

    /** The journal, or null for a configuration concluded for a schema ({@link PipelineBuilder#concludeFor}). */
    private final JournalDirectory directory;
    private final JournalSchema schema;
    private final OperatorConfiguration operators;
    private final ColumnProjection projection;
    private final ResultListener results;
    private final LateListener late;
    private final AppliedListener applied;
    private final PipelineFailureListener failure;
    private final CheckpointListener checkpointListener;
    private final PipelineStateListener stateListener;
    private final ThreadFactory threadFactory;
    private final CpuPinning pinning;
    private final Supplier<IdleStrategy> publisherIdle;
    private final PipelineLayout layout;
    private final Supplier<WaitStrategy> waitStrategy;
    private final int ringSize;
    private final boolean durableOutput;
    private final long checkpointInterval;
    private final boolean syncOnCheckpoint;
    private final boolean checkpointEachHeartbeat;
    private final long fromOffset;
    private final long toOffset;
    /** The retention a following run applies, ms, or -1 for none. */
    /** How long the journal stays quiet before a following run appends a heartbeat, ms, or 0 for none. */
    private final long idleTimeoutMillis;
    /** Told when those heartbeats stop, or null. */
    private final Consumer<RuntimeException> heartbeatsStopped;
    private final long retentionMillis;
    /** Where that retention moves removed cycles, or null to delete them. */
    private final Path retentionArchive;
    /** The sink delivered into while running, or null. */
    private final OutputSink deliverySink;
    private final long deliveryIntervalMillis;
    private final DeliveryListener deliveryListener;
    /** True to resume from a checkpoint taken at the end of a bounded input all the same. */
    private final boolean resumeAfterEnd;
    /** The payload to recover from instead of the journal's checkpoints, or null. */
    private final CheckpointPayload recoverFrom;
    /** The filter's text, compiled for each run, or null. */
    private final String filterSource;
    /** The application's filter, or null. */
    private final EventFilter filter;
    /** The filter's normalised text or name, or null without a filter. */
    private final String filterName;
    /** The joins, in order; empty for none. */
    private final List<JoinSpec> joins;
    private final JoinMissing joinMissing;
    /** The columns expressions name: the events', then each joined table's. */
    private final ExpressionColumns expressionColumns;
    /** The named aggregates, bound to those columns, or null without them. */
    private final BoundAggregates named;

    /**
     * @param builder  the settings.
     * @param inMemory the schema of the events, for a configuration without a journal; null to open the
     *                 builder's journal.
     */
    PipelineConfiguration(final PipelineBuilder builder, final JournalSchema inMemory)
    {
        this(builder, inMemory, null);
    }

    /**
     * @param tables with {@code inMemory}, the tables joins are resolved against, or null for none.
     */
    PipelineConfiguration(final PipelineBuilder builder, final JournalSchema inMemory, final List<TableDefinition> tables)
    {
        if (inMemory == null && builder.journal == null)
        {
            throw new IllegalStateException("a journal directory is required");
        }
        if (builder.window == null)
        {
            throw new IllegalStateException("a window spec is required");
        }
        if (builder.layout == PipelineLayout.INLINE && builder.waitStrategy != null)
        {
            throw new IllegalStateException("the INLINE layout has no consumer wait strategy: set publisherIdle(...) instead");
        }
        this.directory = inMemory == null ? JournalDirectory.open(builder.journal).pipeline(builder.pipeline) : null;
        this.schema = inMemory == null ? directory.schema() : inMemory;
        this.joins = resolveJoins(builder, directory != null ? directory.tables() : tables, schema);
        this.joinMissing = builder.joinMissing;
        ExpressionColumns columns = ExpressionColumns.of(schema);
        for (final JoinSpec join : joins)
        {
            columns = columns.join(join.definition().name(), join.definition().columns());
        }
        this.expressionColumns = columns;
        this.named = bindNamed(builder, columns);
        if (named != null)
        {
            this.projection = ColumnProjection.withoutValue(schema, builder.keyColumn);
            refuseKeyNames(named, projection);
        }
        else
        {
            this.projection = builder.valueExpression == null
                ? ColumnProjection.of(schema, expressionColumns, builder.keyColumn, builder.valueColumn)
                : ColumnProjection.of(schema, builder.keyColumn, builder.valueExpression, builder.valueColumn);
        }
        this.filterSource = builder.filterText;
        this.filter = builder.filter;
        this.filterName = builder.filterText != null
            ? Expressions.check(builder.filterText, expressionColumns()) // checks it, before any run
            : builder.filterName;
        final List<Aggregation> bound = new ArrayList<>(builder.aggregations.size());
        for (final Aggregation a : builder.aggregations)
        {
            bound.add(a.bind(schema));
        }
        final WindowCondition early;
        if (builder.earlyWhenText == null)
        {
            early = builder.earlyWhen;
        }
        else
        {
            early = named != null ? WindowConditions.parse(builder.earlyWhenText, named, expressionColumns)
                : WindowConditions.parse(builder.earlyWhenText, projection.valueScale(), bound.size(), expressionColumns);
        }
        this.operators = OperatorConfiguration.builder(builder.window).outOfOrderness(builder.outOfOrderness)
            .allowedLateness(builder.allowedLateness).latePolicy(builder.latePolicy).dedupe(builder.dedupe)
            .aggregations(bound).namedAggregates(named).schema(schema).initialWindows(builder.initialWindows)
            .emitUpdates(builder.emitUpdates).earlyWhen(early).earlyOncePerKey(builder.earlyOncePerKey).build();
        this.results = builder.results != null ? builder.results : r -> { };
        this.late = builder.late;
        this.applied = builder.applied;
        this.failure = builder.failure;
        this.checkpointListener = builder.checkpointListener;
        this.stateListener = builder.stateListener;
        this.threadFactory = builder.threadFactory;
        this.pinning = CpuPinning.of(builder.pinStages, builder.pinPublisher);
        this.publisherIdle = builder.publisherIdle;
        this.layout = builder.layout;
        this.waitStrategy = builder.waitStrategy;
        this.ringSize = builder.ringSize;
        this.durableOutput = inMemory == null && builder.durableOutput;
        this.checkpointInterval = builder.checkpointInterval;
        this.idleTimeoutMillis = builder.idleTimeoutMillis;
        this.heartbeatsStopped = builder.heartbeatsStopped;
        this.syncOnCheckpoint = builder.syncOnCheckpoint;
        this.checkpointEachHeartbeat = builder.checkpointEachHeartbeat;
        this.fromOffset = builder.fromOffset;
        this.toOffset = builder.toOffset;
        if (builder.retentionMillis >= 0 && !durableOutput)
        {
            throw new IllegalStateException("retention needs a run with durable outputs: a replay or an in-memory run has no journal of its own to retain");
        }
        this.retentionMillis = builder.retentionMillis;
        this.retentionArchive = builder.retentionArchive;
        if (builder.deliverySink != null && !durableOutput)
        {
            throw new IllegalStateException("continuous delivery needs a run with durable outputs: a replay or an in-memory run has no output journal");
        }
        this.deliverySink = builder.deliverySink;
        this.deliveryIntervalMillis = builder.deliveryIntervalMillis;
        this.deliveryListener = builder.deliveryListener;
        this.resumeAfterEnd = builder.resumeAfterEnd;
        this.recoverFrom = builder.recoverFrom;
    }

    /**
     * Read the journal's newest valid checkpoint (or the payload given to {@link PipelineBuilder#recoverFrom}),
     * once, and check that it was taken under this configuration. A replay ({@link PipelineBuilder#replayRange}) recovers nothing.
     *
     * @return where a run resumes: the checkpoint and its state, or the beginning of the journal.
     * @throws dev.weir.engine.resume.CheckpointMismatchException if the newest checkpoint was taken under
     *                                                                another configuration.
     * @throws IllegalStateException if the configuration was concluded without a journal
     *                               ({@link PipelineBuilder#concludeFor}).
     */
    public Recovery recover()
    {
        requireJournal();
        if (!durableOutput)
        {
            return Recovery.none();
        }
        return recoverFrom != null ? Recovery.fromPayload(recoverFrom.buffer(), describe(), directory)
            : Recovery.load(checkpointStore(), describe(), directory);
    }

    /**
     * Refuse to resume from a checkpoint taken at the end of a bounded input when the run would process events
     * after it, every one of them late, unless {@link PipelineBuilder#resumeAfterEnd(boolean)} accepted it. A
     * run checks this itself before it processes anything; a command may check it earlier (before it appends).
     *
     * @param recovery where the run resumes, from {@link #recover()} of this configuration.
     * @param follow   true for a following run.
     * @throws dev.weir.engine.resume.ResumeAfterEndException if the run would make every event after the
     *                                                            checkpoint late.
     */
    public void checkResume(final Recovery recovery, final boolean follow)
    {
        if ((!resumeAfterEnd || recovery.rebuilt() != null) && directory != null)
        {
            ResumeAfterEnd.check(recovery, directory, follow);
        }
    }

    /**
     * {@link #checkResume(Recovery, boolean)} after the caller appended events to the journal since {@link #recover()}
     * (an ingest between the two checks): a refusal says those events stay in the journal.
     *
     * @param recovery where the run resumes, from {@link #recover()} of this configuration.
     * @param follow   true for a following run.
     * @param appended the events the caller appended since it recovered; 0 for none.
     * @throws dev.weir.engine.resume.ResumeAfterEndException if the run would make every event after the
     *                                                            checkpoint late.
     */
    public void checkResume(final Recovery recovery, final boolean follow, final long appended)
    {
        try
        {
            checkResume(recovery, follow);
        }
        catch (final ResumeAfterEndException ex)
        {
            if (appended <= 0)
            {
                throw ex;
            }
            throw new ResumeAfterEndException(ex.getMessage() + String.format("; the %,d events this run ingested stay in the journal", appended));
        }
    }

    /**
     * @return a pipeline that resumes from the journal's newest valid checkpoint (read now).
     */
    public Pipeline build()
    {
        return build(recover());
    }

    /**
     * @param recovery where to resume, from {@link #recover()} of this configuration.
     * @return a pipeline that resumes there.
     * @throws dev.weir.journal.JvmFlagsMissingException if this JVM lacks flags Chronicle needs
     *                                                   ({@link dev.weir.journal.JvmFlags}).
     * @throws IllegalStateException if the configuration was concluded without a journal
     *                               ({@link PipelineBuilder#concludeFor}).
     */
    public Pipeline build(final Recovery recovery)
    {
        requireJournal();
        JvmFlags.check();
        return new Pipeline(this, recovery);
    }

    private void requireJournal()
    {
        if (directory == null)
        {
            throw new IllegalStateException("this configuration was concluded for a schema, without a journal: it runs in memory only (InMemoryRun)");
        }
    }

    /**
     * @return the configuration string a checkpoint records and must match to be resumed.
     */
    public String describe()
    {
        return operators.describe() + projection.describe() + (named == null ? "" : " named=" + named.definitions().text())
            + (filterName == null ? "" : " where=" + filterName) + describeJoins();
    }

    /**
     * @return the builder's named aggregates bound to the columns, or null without them.
     * @throws IllegalArgumentException if a value or user aggregations are given beside them, or they do not bind.
     */
    private static BoundAggregates bindNamed(final PipelineBuilder builder, final ExpressionColumns columns)
    {
        if (builder.named == null)
        {
            return null;
        }
        if (builder.valueGiven)
        {
            throw new IllegalArgumentException(VALUE_WITH_AGGREGATES);
        }
        if (!builder.aggregations.isEmpty())
        {
            throw new IllegalArgumentException(AGGREGATE_AND_AGGREGATES);
        }
        return builder.named.bind(columns);
    }

    /**
     * @throws IllegalArgumentException if an aggregate has a key column's name: a row would have two columns of it.
     */
    private static void refuseKeyNames(final BoundAggregates named, final ColumnProjection projection)
    {
        for (int k = 0; k < projection.keyArity(); k++)
        {
            final String key = projection.schema().column(projection.keyColumn(k)).name();
            for (int i = 0; i < named.size(); i++)
            {
                if (named.name(i).equals(key))
                {
                    throw new IllegalArgumentException("'" + key + "' is a key column: a row would have two columns of that name; name the aggregate otherwise");
                }
            }
        }
    }

    /** The joins' part of the configuration string: empty without joins, so older checkpoints still match. */
    private String describeJoins()
    {
        if (joins.isEmpty())
        {
            return "";
        }
        final StringBuilder text = new StringBuilder(" join=");
        for (int i = 0; i < joins.size(); i++)
        {
            text.append(i == 0 ? "" : ",").append(joins.get(i).describe(schema));
        }
        return text.append(joinMissing == JoinMissing.KEEP ? " join-missing=keep" : "").toString();
    }

    /**
     * @param strings the texts of string ids (the events' and the joined tables'), or null to compile against no
     *                dictionary (every literal unknown).
     * @return the text filter compiled, over the joined columns when there are joins.
     */
    private EventFilter newTextFilter(final StringTexts strings)
    {
        if (joins.isEmpty())
        {
            return Expressions.filter(filterSource, schema, strings == null ? (column, text) -> -1 : strings);
        }
        return Expressions.filter(filterSource, expressionColumns, strings == null ? JoinedColumns.NO_TEXTS : strings);
    }

    /** @return the joins, in order; empty for none. */
    public List<JoinSpec> joins()
    {
        return joins;
    }

    /** @return what becomes of an event a join finds no row for. */
    public JoinMissing joinMissing()
    {
        return joinMissing;
    }

    /** @return the columns expressions name: the events', then each joined table's ({@code TABLE.COLUMN}). */
    public ExpressionColumns expressionColumns()
    {
        return expressionColumns;
    }

    /**
     * @param eventTexts the texts of the events' string columns, owned by the run's source thread.
     * @return the joins' state for one run, empty (rows read before the run are applied by
     *         {@link TableJoins#readBefore}); null without joins.
     */
    TableJoins newJoins(final StringTexts eventTexts)
    {
        if (joins.isEmpty())
        {
            return null;
        }
        final AsOfJoin[] each = new AsOfJoin[joins.size()];
        for (int i = 0; i < each.length; i++)
        {
            final JoinSpec join = joins.get(i);
            each[i] = new AsOfJoin(join.table(), join.definition(), join.eventColumns(), eventTexts);
        }
        final long reach = reach();
        final Horizon horizon = new Horizon(operators.outOfOrderness(), operators.lateness().allowedLateness(), reach);
        return new TableJoins(horizon, each, schema.size(), joinMissing);
    }

    /**
     * @return what a join-state file records of the joins ({@link dev.weir.engine.join.JoinStateFile}): each join's
     *         table index, definition and event columns, and the horizon's durations, which decide what is kept.
     */
    String joinConfiguration()
    {
        final StringBuilder text = new StringBuilder();
        for (final JoinSpec join : joins)
        {
            text.append("join ").append(join.table()).append(' ').append(join.definition().text()).append(" on ")
                .append(join.describe(schema)).append('\n');
        }
        final long reach = reach();
        return text.append("horizon ").append(operators.outOfOrderness()).append(' ').append(operators.lateness().allowedLateness())
            .append(' ').append(reach).toString();
    }

    /** @return the window's size, or the session gap: how far back of the watermark an event still counts. */
    private long reach()
    {
        return operators.window() instanceof AlignedWindows aligned ? aligned.size() : ((SessionWindows)operators.window()).gap();
    }

    /** Resolve the builder's joins against the journal's tables. */
    private static List<JoinSpec> resolveJoins(final PipelineBuilder builder, final List<TableDefinition> tables, final JournalSchema schema)
    {
        if (builder.joins.isEmpty())
        {
            return List.of();
        }
        if (tables == null)
        {
            throw new IllegalStateException("a join reads a table of a journal: a configuration concluded for a schema, without a journal, has none");
        }
        final List<JoinSpec> resolved = new ArrayList<>();
        for (final String[] join : builder.joins)
        {
            for (final JoinSpec before : resolved)
            {
                if (before.definition().name().equals(join[0]))
                {
                    throw new IllegalArgumentException("--join " + join[0] + " is given twice: join each table once");
                }
            }
            resolved.add(JoinSpec.resolve(tables, schema, join[0], List.of(join).subList(1, join.length)));
        }
        return List.copyOf(resolved);
    }

    /**
     * @return the filter's normalised text, or the name of a filter written in Java; null without a filter.
     */
    public String filterText()
    {
        return filterName;
    }

    /**
     * @param ids resolves string literals, owned by the run's source thread; a {@link StringTexts} (a journal's
     *            {@link dev.weir.engine.expr.DictionaryTexts}) also lets two string columns be compared.
     * @return the filter for one run: the filter's text compiled again, or the application's filter; null
     *         without a filter.
     * @throws dev.weir.engine.expr.ExpressionException if the filter compares two string columns and {@code ids} is
     *                                                  not a {@link StringTexts}.
     */
    EventFilter newFilter(final StringIds ids)
    {
        if (filterSource == null)
        {
            return filter;
        }
        return ids instanceof StringTexts texts ? Expressions.filter(filterSource, expressionColumns(), texts)
            : Expressions.filter(filterSource, schema, ids);
    }

    /**
     * @param texts the texts of the joined view's string columns ({@link dev.weir.engine.join.JoinedTexts}), owned
     *              by the run's source thread.
     * @return the filter for one run with joins, over the joined columns; null without a filter.
     */
    EventFilter newJoinedFilter(final StringTexts texts)
    {
        return filterSource != null ? newTextFilter(texts) : filter;
    }

    /** @return true if the pipeline filters with an expression given as text (each run compiles its own). */
    boolean filtersByText()
    {
        return filterSource != null;
    }

    /**
     * @return the key and value columns the pipeline reads.
     */
    public ColumnProjection projection()
    {
        return projection;
    }

    /**
     * @return the journal directory, as the pipeline sees it: its {@link JournalDirectory#pipelineName()}
     *         scopes the checkpoints, output journal and metrics file; null for a configuration concluded for a
     *         schema, without a journal ({@link PipelineBuilder#concludeFor}).
     */
    public JournalDirectory directory()
    {
        return directory;
    }

    /**
     * @return the columns of the events: the journal's schema, or the one given to
     *         {@link PipelineBuilder#concludeFor}.
     */
    public JournalSchema schema()
    {
        return schema;
    }

    CheckpointStore checkpointStore()
    {
        return new CheckpointStore(directory.checkpoints(), CHECKPOINTS_KEPT);
    }

    WindowAssigner newAssigner()
    {
        return operators.newAssigner();
    }

    /**
     * @param resultListener receives results.
     * @param lateListener   receives late events.
     * @param keys           the text of the key ids the results carry (owned by the last stage's thread), or null.
     * @return the aggregator, whose results and late events carry that key text and the value's scale.
     */
    WindowAggregator newAggregator(final ResultListener resultListener, final LateListener lateListener, final KeyText keys)
    {
        final WindowAggregator aggregator = operators.newAggregator(resultListener, lateListener);
        aggregator.describeKeys(keys, projection.valueScale());
        return aggregator;
    }

    /**
     * @param follow true for a following run.
     * @return the layout: the chosen one, or INLINE for a following run without a consumer wait strategy,
     *         else FUSED.
     */
    PipelineLayout layout(final boolean follow)
    {
        return layout != null ? layout : follow && waitStrategy == null ? PipelineLayout.INLINE : PipelineLayout.FUSED;
    }

    /**
     * @param follow true for a following run.
     * @return the consumers' wait strategy for a threaded layout: the chosen one, else sleeping when
     *         following and yielding for a bounded run.
     */
    WaitStrategy waitStrategy(final boolean follow)
    {
        return waitStrategy != null ? waitStrategy.get() : follow ? new SleepingWaitStrategy() : new YieldingWaitStrategy();
    }

    IdleStrategy publisherIdle()
    {
        return publisherIdle != null ? publisherIdle.get() : JournalPublisher.defaultIdle();
    }

    ResultListener results()
    {
        return results;
    }

    LateListener late()
    {
        return late;
    }

    AppliedListener applied()
    {
        return applied;
    }

    CheckpointListener checkpointListener()
    {
        return checkpointListener;
    }

    PipelineFailureListener failure()
    {
        return failure;
    }

    PipelineStateListener stateListener()
    {
        return stateListener;
    }

    /** @return the application's thread factory, or null. */
    ThreadFactory threadFactory()
    {
        return threadFactory;
    }

    CpuPinning pinning()
    {
        return pinning;
    }

    /**
     * @return the user aggregations, bound to the journal's schema, in order: what each result carries; empty with
     *         named aggregates.
     */
    public List<Aggregation> aggregations()
    {
        return operators.aggregations();
    }

    /**
     * @return the named aggregates ({@link PipelineBuilder#aggregates(String)}), bound to the columns, or null without
     *         them.
     */
    public BoundAggregates namedAggregates()
    {
        return named;
    }

    /**
     * @return how many longs of aggregates each result carries in the output journal: one per user aggregation, or
     *         one per named aggregate and the presence mask.
     */
    int resultAggregates()
    {
        return named == null ? operators.aggregations().size() : named.size() + 1;
    }

    /** @return how many named-aggregate inputs each event's ring slot carries: 0 without named aggregates. */
    int slotInputs()
    {
        return named == null ? 0 : named.inputCount();
    }

    /**
     * @param texts the texts of string ids (the events', and the joined tables' with joins), owned by the run's
     *              source thread.
     * @return the named aggregates' inputs compiled for one run, or null without named aggregates.
     */
    AggregateInputs newAggregateInputs(final StringTexts texts)
    {
        return named == null ? null : named.newInputs(texts);
    }

    /**
     * @return how many columns of each event the ring's slots carry: one per column of {@link #expressionColumns()}
     *         if a user aggregation or the early condition reads columns, else 0.
     */
    int slotColumns()
    {
        return copiedColumns() != null ? expressionColumns.size() : 0;
    }

    /** @return per column an expression may name (the events', then each joined table's), true for a string column. */
    boolean[] stringColumns()
    {
        final boolean[] strings = new boolean[expressionColumns.size()];
        for (int i = 0; i < strings.length; i++)
        {
            strings[i] = expressionColumns.column(i).type() == dev.weir.journal.schema.ColumnType.STRING;
        }
        return strings;
    }

    /**
     * @return the columns the source copies into each event's slot: every column if a user aggregation reads them,
     *         else those the early condition names, or null for none.
     */
    int[] copiedColumns()
    {
        if (operators.readsColumns())
        {
            return SlotFiller.every(schema);
        }
        final int[] named = operators.earlyWhen() == null ? new int[0] : operators.earlyWhen().columns();
        return named.length == 0 ? null : named;
    }

    int ringSize()
    {
        return ringSize;
    }

    boolean durableOutput()
    {
        return durableOutput;
    }

    long checkpointInterval()
    {
        return checkpointInterval;
    }

    boolean syncOnCheckpoint()
    {
        return syncOnCheckpoint;
    }

    /** @return whether each heartbeat applied is checkpointed at once ({@link PipelineBuilder#checkpointEachHeartbeat}). */
    boolean checkpointEachHeartbeat()
    {
        return checkpointEachHeartbeat;
    }

    /**
     * @return D, the out-of-orderness, ms: the watermark is the newest event time less D.
     */
    public long outOfOrdernessMillis()
    {
        return operators.outOfOrderness();
    }

    long fromOffset()
    {
        return fromOffset;
    }

    long toOffset()
    {
        return toOffset;
    }

    /** @return the retention a following run applies, ms, or -1 for none. */
    long retentionMillis()
    {
        return retentionMillis;
    }

    /** @return where removed cycles are moved, or null to delete them. */
    Path retentionArchive()
    {
        return retentionArchive;
    }

    /**
     * @return the continuous delivery a run starts with its threads, not started, or null without one.
     */
    ContinuousDelivery continuousDelivery()
    {
        return deliverySink == null ? null : new ContinuousDelivery(deliverySink, directory(), deliveryIntervalMillis, deliveryListener);
    }

    /** @return how long the journal stays quiet before a following run appends a heartbeat, ms, or 0 for none. */
    long idleTimeoutMillis()
    {
        return idleTimeoutMillis;
    }

    /** @return told when those heartbeats stop, or null. */
    Consumer<RuntimeException> heartbeatsStopped()
    {
        return heartbeatsStopped;
    }
}
