package dev.weir.engine.support;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.IntFunction;

import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.PipelineLayout;
import dev.weir.engine.RunSummary;
import dev.weir.engine.Weir;
import dev.weir.engine.emit.WindowResult;
import dev.weir.engine.model.JoinCase;
import dev.weir.engine.model.JoinStreamGenerator;
import dev.weir.engine.model.ModelConfig;
import dev.weir.engine.model.ModelEvent;
import dev.weir.engine.model.ModelOptions;
import dev.weir.engine.operator.OperatorConfiguration;
import dev.weir.engine.operator.OperatorCounters;
import dev.weir.engine.operator.WindowAggregator;
import dev.weir.engine.operator.WindowAssigner;
import dev.weir.engine.operator.WindowConditions;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.SessionWindows;
import dev.weir.engine.window.SlidingWindows;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.journal.EventJournal;
import dev.weir.journal.EventRow;
import dev.weir.journal.KeyDictionary;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.KeyTupleReader;
import dev.weir.journal.StringDictionaries;
import dev.weir.journal.codec.ResultKind;
import dev.weir.journal.schema.JournalSchema;

/**
 * Runs the real engine on a list of events and renders its output as the model's rows, so the two can
 * be compared (heartbeats in the list, {@link ModelEvent#heartbeat}, go in as heartbeats). Two ways: the two stages driven directly on one slot (fast: thousands of streams), or the
 * whole pipeline (Chronicle journal, Disruptor ring, threads).
 */
public final class EngineRun
{
    /** Result rows in emit order. */
    public final List<String> results = new ArrayList<>();
    /** Late rows in arrival order. */
    public final List<String> late = new ArrayList<>();
    /** Counters. */
    public long dropped;
    /** Counters. */
    public long sideOutput;
    /** Counters. */
    public long ignored;
    /** Events the pipeline's filter rejected. */
    public long filtered;
    /** Events dropped because a join found no row. */
    public long unmatched;

    private EngineRun()
    {
    }

    /**
     * @param config the model's configuration.
     * @return the engine's window spec for it.
     */
    public static WindowSpec windowSpec(final ModelConfig config)
    {
        switch (config.kind())
        {
            case TUMBLING:
                return TumblingWindows.of(config.size());
            case SLIDING:
                return SlidingWindows.of(config.size(), config.slide());
            default:
                return SessionWindows.withGap(config.size());
        }
    }

    /**
     * Drive the assignment and aggregation stages directly, on this thread, through one event slot.
     *
     * @param events the stream.
     * @param config the configuration.
     * @return the output.
     */
    public static EngineRun stages(final List<ModelEvent> events, final ModelConfig config)
    {
        return stages(events, config, 0);
    }

    /**
     * {@link #stages(List, ModelConfig)} with a window index of one entry per key for tumbling and sliding
     * windows, so that most windows go through its overflow map.
     *
     * @param events the stream.
     * @param config the configuration.
     * @return the output.
     */
    public static EngineRun stagesWithTinyIndex(final List<ModelEvent> events, final ModelConfig config)
    {
        return stages(events, config, 1);
    }

    /**
     * {@link #stagesWithTinyIndex(List, ModelConfig)} with update and early rows.
     *
     * @param events  the stream.
     * @param config  the configuration.
     * @param options the options; the engine parses the early condition's text.
     * @return the output.
     */
    public static EngineRun stagesWithTinyIndex(final List<ModelEvent> events, final ModelConfig config, final ModelOptions options)
    {
        return stages(events, config, 1, options);
    }

    private static EngineRun stages(final List<ModelEvent> events, final ModelConfig config, final int indexRingSlides)
    {
        return stages(events, config, indexRingSlides, ModelOptions.NONE);
    }

    /**
     * {@link #stages(List, ModelConfig)} with update and early rows.
     *
     * @param events  the stream.
     * @param config  the configuration.
     * @param options the options; the engine parses the early condition's text.
     * @return the output: update and early rows end with {@code ,update} and {@code ,early}.
     */
    public static EngineRun stages(final List<ModelEvent> events, final ModelConfig config, final ModelOptions options)
    {
        return stages(events, config, 0, options);
    }

    private static EngineRun stages(final List<ModelEvent> events, final ModelConfig config, final int indexRingSlides, final ModelOptions options)
    {
        final EngineRun run = new EngineRun();
        final Map<String, Integer> ids = new HashMap<>();
        final List<String> names = new ArrayList<>();
        final OperatorConfiguration configuration = OperatorConfiguration.builder(windowSpec(config))
            .outOfOrderness(config.outOfOrderness()).allowedLateness(config.allowedLateness())
            .latePolicy(config.sideOutput() ? LatePolicy.SIDE : LatePolicy.DROP).indexRingSlides(indexRingSlides)
            .emitUpdates(options.updates()).earlyWhen(options.earlyText() == null ? null : WindowConditions.parse(options.earlyText(), 0, 0))
            .earlyOncePerKey(options.onceByKey()).build();
        final WindowAssigner assigner = configuration.newAssigner();
        final WindowAggregator aggregator = configuration.newAggregator(r -> run.results.add(row(r, names.get(r.keyId()))),
            e -> run.late.add(e.eventId() + "," + e.eventTime() + "," + names.get(e.keyId()) + "," + e.value()));
        final EventSlot slot = new EventSlot();
        long offset = 0;
        for (final ModelEvent e : events)
        {
            if (e.isHeartbeat())
            {
                slot.heartbeat(offset++, e.eventTime());
                assigner.assign(slot);
                aggregator.apply(slot);
                continue;
            }
            final int keyId = ids.computeIfAbsent(e.key(), k ->
            {
                names.add(k);
                return names.size() - 1;
            });
            slot.event(offset++, e.eventId(), e.eventTime(), keyId, e.value());
            assigner.assign(slot);
            aggregator.apply(slot);
        }
        slot.endOfInput(offset - 1);
        assigner.assign(slot);
        aggregator.apply(slot);
        final OperatorCounters c = aggregator.counters();
        run.dropped = c.dropped();
        run.sideOutput = c.sideOutput();
        run.ignored = c.ignored();
        return run;
    }

    /**
     * Run the whole pipeline: append the events to a new Chronicle journal, then process it through the
     * Disruptor ring on the pipeline's threads.
     *
     * @param events  the stream.
     * @param config  the configuration.
     * @param journal a missing or empty directory for the journal.
     * @param layout  fused or staged.
     * @return the output.
     */
    public static EngineRun pipeline(final List<ModelEvent> events, final ModelConfig config, final Path journal, final PipelineLayout layout)
    {
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (final ModelEvent e : events)
            {
                if (e.isHeartbeat())
                {
                    writer.appendHeartbeat(e.eventTime());
                    continue;
                }
                writer.append(e.eventId(), e.eventTime(), e.key(), e.value());
            }
        }
        try (KeyDictionary keys = KeyDictionary.open(JournalDirectory.open(journal)))
        {
            return collect(Weir.pipeline().journal(journal), config, layout, keys::name);
        }
    }

    /**
     * {@link #pipeline(List, ModelConfig, Path, PipelineLayout)} with update and early rows (through the
     * output journal, as every pipeline with durable outputs).
     *
     * @param events  the stream.
     * @param config  the configuration.
     * @param journal a missing or empty directory for the journal.
     * @param layout  the thread layout.
     * @param options the options; the pipeline parses the early condition's text.
     * @return the output.
     */
    public static EngineRun pipeline(
        final List<ModelEvent> events, final ModelConfig config, final Path journal, final PipelineLayout layout, final ModelOptions options)
    {
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (final ModelEvent e : events)
            {
                writer.append(e.eventId(), e.eventTime(), e.key(), e.value());
            }
        }
        try (KeyDictionary keys = KeyDictionary.open(JournalDirectory.open(journal)))
        {
            final PipelineBuilder builder = Weir.pipeline().journal(journal).emitUpdates(options.updates()).earlyOncePerKey(options.onceByKey());
            return collect(options.earlyText() == null ? builder : builder.earlyWhen(options.earlyText()), config, layout, keys::name);
        }
    }

    /** Run a configured pipeline to the end with the model's configuration, keeping its outputs with their keys as text. */
    private static EngineRun collect(final PipelineBuilder builder, final ModelConfig config, final PipelineLayout layout, final IntFunction<String> keys)
    {
        final EngineRun run = new EngineRun();
        final RunSummary summary = builder
            .window(windowSpec(config))
            .outOfOrderness(config.outOfOrderness())
            .allowedLateness(config.allowedLateness())
            .latePolicy(config.sideOutput() ? LatePolicy.SIDE : LatePolicy.DROP)
            .layout(layout)
            .ringSize(64)
            .onResult(r -> run.results.add(row(r, keys.apply(r.keyId()))))
            .onLate(e -> run.late.add(e.eventId() + "," + e.eventTime() + "," + keys.apply(e.keyId()) + "," + e.value()))
            .build()
            .runToEnd();
        run.dropped = summary.dropped();
        run.sideOutput = summary.sideOutput();
        run.ignored = summary.ignored();
        run.filtered = summary.filtered();
        run.unmatched = summary.unmatched();
        return run;
    }

    /** The six columns {@link #pipelineOnColumns} writes: the model's key goes in card or merchant, its value in amount. */
    public static final JournalSchema PAYMENTS =
        JournalSchema.parse("channel:string,fee:long,card:string,merchant:string,amount:decimal(2),country:string");

    /**
     * The whole pipeline over a six-column journal ({@link #PAYMENTS}), keyed by {@code keyColumn} (card or
     * merchant, which holds the model's key; the other holds noise) and aggregating {@code amount} (the
     * model's value, unscaled): the results must be the model's, whatever the other columns hold.
     *
     * @param events    the stream.
     * @param config    the configuration.
     * @param journal   a directory for the journal.
     * @param layout    the thread layout.
     * @param keyColumn card or merchant.
     * @return what the engine produced, keys as text.
     */
    public static EngineRun pipelineOnColumns(
        final List<ModelEvent> events, final ModelConfig config, final Path journal, final PipelineLayout layout, final String keyColumn)
    {
        return pipelineOnColumns(events, config, journal, layout, keyColumn, b -> b.valueColumn("amount"));
    }

    /**
     * The same as {@link #pipelineOnColumns(List, ModelConfig, Path, PipelineLayout, String)} with the value
     * (and a filter, if any) chosen by {@code configure} instead of {@code amount}. The other columns hold:
     * {@code channel} {@code online, "web"} when the event id is a multiple of 3 (else {@code pos}), {@code fee}
     * three times the event id, {@code country} {@code FR} for an even event id (else {@code DE}).
     *
     * @param events    the stream.
     * @param config    the configuration.
     * @param journal   a directory for the journal.
     * @param layout    the thread layout.
     * @param keyColumn card or merchant.
     * @param configure sets the value, and the filter if any.
     * @return what the engine produced, keys as text.
     */
    public static EngineRun pipelineOnColumns(
        final List<ModelEvent> events, final ModelConfig config, final Path journal, final PipelineLayout layout, final String keyColumn,
        final java.util.function.UnaryOperator<PipelineBuilder> configure)
    {
        final int keyIndex = PAYMENTS.indexOf(keyColumn);
        final int noiseIndex = keyColumn.equals("card") ? PAYMENTS.indexOf("merchant") : PAYMENTS.indexOf("card");
        JournalDirectory.create(journal, PAYMENTS);
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (final ModelEvent e : events)
            {
                if (e.isHeartbeat())
                {
                    writer.appendHeartbeat(e.eventTime());
                    continue;
                }
                final EventRow row = writer.row().eventId(e.eventId()).eventTime(e.eventTime());
                row.setString(0, writer.stringId(0, e.eventId() % 3 == 0 ? "online, \"web\"" : "pos"));
                row.setLong(1, e.eventId() * 3);
                row.setString(keyIndex, writer.stringId(keyIndex, e.key()));
                row.setString(noiseIndex, writer.stringId(noiseIndex, "noise-" + (e.eventId() % 5)));
                row.setLong(4, e.value());
                row.setString(5, writer.stringId(5, e.eventId() % 2 == 0 ? "FR" : "DE"));
                writer.append(row);
            }
        }
        try (StringDictionaries strings = StringDictionaries.open(JournalDirectory.open(journal)))
        {
            return collect(configure.apply(Weir.pipeline().journal(journal).keyColumn(keyColumn)), config, layout,
                strings.dictionary(keyIndex)::name);
        }
    }

    /**
     * The whole pipeline over a six-column journal ({@link #PAYMENTS}) keyed by more than one string column:
     * the model's key is split in two, its first half in {@code merchant} and the rest in {@code country},
     * each behind a one-letter prefix (a split that loses nothing: the halves concatenated give the key back), or by a long column: the
     * model's key is numbered into {@code fee}. The results, with the key rebuilt from the columns, must
     * be the model's.
     *
     * @param events    the stream.
     * @param config    the configuration.
     * @param journal   a directory for the journal.
     * @param layout    the thread layout.
     * @param composite true for the key {@code merchant,country}, false for the long key {@code fee}.
     * @return what the engine produced, keys as the model's text.
     */
    public static EngineRun pipelineOnKeyTuples(
        final List<ModelEvent> events, final ModelConfig config, final Path journal, final PipelineLayout layout, final boolean composite)
    {
        final Map<String, Long> numbers = new HashMap<>();
        final Map<Long, String> byNumber = new HashMap<>();
        JournalDirectory.create(journal, PAYMENTS);
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (final ModelEvent e : events)
            {
                if (e.isHeartbeat())
                {
                    writer.appendHeartbeat(e.eventTime());
                    continue;
                }
                final String key = e.key();
                final long number = numbers.computeIfAbsent(key, k -> -7_000L + 13L * numbers.size());
                byNumber.put(number, key);
                final EventRow row = writer.row().eventId(e.eventId()).eventTime(e.eventTime());
                row.setString(0, writer.stringId(0, "pos"));
                row.setLong(1, composite ? e.eventId() % 4 : number);
                row.setString(2, writer.stringId(2, composite ? "card-" + e.eventId() % 3 : key));
                row.setString(3, writer.stringId(3, composite ? "m" + key.substring(0, key.length() / 2) : "m"));
                row.setLong(4, e.value());
                row.setString(5, writer.stringId(5, composite ? "c" + key.substring(key.length() / 2) : "FR"));
                writer.append(row);
            }
        }
        final JournalDirectory directory = JournalDirectory.open(journal);
        final String[] names = new String[numbers.size()];
        try (StringDictionaries strings = StringDictionaries.open(directory);
             KeyTupleReader tuples = KeyTupleReader.open(directory, composite ? new int[] {3, 5} : new int[] {1}))
        {
            for (int id = 0; id < names.length; id++)
            {
                names[id] = composite
                    ? strings.dictionary(3).name((int)tuples.component(id, 0)).substring(1) + strings.dictionary(5).name((int)tuples.component(id, 1)).substring(1)
                    : byNumber.get(tuples.component(id, 0));
            }
        }
        final PipelineBuilder builder = Weir.pipeline().journal(journal).valueColumn("amount");
        return collect(composite ? builder.keyColumns("merchant", "country") : builder.keyColumn("fee"), config, layout, id -> names[id]);
    }

    /**
     * The whole pipeline over a journal with tables ({@link TableJournal}), keyed by the case's key column,
     * configured (joins, filter, value, early condition) by {@code configure}.
     *
     * @param c         the case.
     * @param journal   a missing or empty directory for the journal.
     * @param layout    the thread layout.
     * @param configure the joins, and the value, filter and early condition if any.
     * @return what the engine produced, keys as text.
     */
    public static EngineRun pipelineWithTables(
        final JoinCase c, final Path journal, final PipelineLayout layout, final java.util.function.UnaryOperator<PipelineBuilder> configure)
    {
        TableJournal.write(c, journal, JoinStreamGenerator.EVENT_COLUMNS);
        final JournalDirectory directory = JournalDirectory.open(journal);
        try (StringDictionaries strings = StringDictionaries.open(directory))
        {
            return collect(configure.apply(Weir.pipeline().journal(journal).keyColumn(c.keyColumn())), c.config(), layout,
                strings.dictionary(directory.schema().indexOf(c.keyColumn()))::name);
        }
    }

    /**
     * @return the result rows sorted, for multiset comparison.
     */
    public List<String> sortedResults()
    {
        final List<String> sorted = new ArrayList<>(results);
        sorted.sort(null);
        return sorted;
    }

    /**
     * The model's row: {@code start,end,key,count,sum,min,max,version[,kind]}, or with named aggregates
     * {@code start,end,key,NAME1,...,NAMEn,version[,kind]}, each value at its scale and an empty field when empty.
     */
    private static String row(final WindowResult r, final String key)
    {
        final String aggregate = r.aggregateCount() > 0 && r.aggregateName(0) != null
            ? namedFields(r) : r.count() + "," + r.sum() + "," + r.min() + "," + r.max();
        final String row = r.windowStart() + "," + r.windowEnd() + "," + key + "," + aggregate + "," + r.version();
        return r.kind() == ResultKind.FINAL ? row : row + "," + r.kind().label();
    }

    private static String namedFields(final WindowResult r)
    {
        final StringJoiner fields = new StringJoiner(",");
        for (int i = 0; i < r.aggregateCount(); i++)
        {
            fields.add(r.hasAggregate(i) ? BigDecimal.valueOf(r.aggregate(i), r.aggregateScale(i)).toPlainString() : "");
        }
        return fields.toString();
    }
}
