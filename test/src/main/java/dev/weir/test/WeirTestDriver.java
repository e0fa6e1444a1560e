package dev.weir.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.weir.engine.InMemoryRun;
import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.PipelineConfiguration;
import dev.weir.engine.emit.LateEvent;
import dev.weir.engine.emit.LateListener;
import dev.weir.engine.emit.ResultListener;
import dev.weir.engine.emit.WindowResult;
import dev.weir.journal.EventRow;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.FieldParser;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.KeyFormat;

/**
 * Runs a configured pipeline's window stages in memory and synchronously, for unit tests, as Kafka Streams'
 * {@code TopologyTestDriver} runs a topology: give it events and heartbeats, then read the results, early and
 * update rows, and late events they emitted, as values to assert on. The engine's own semantics code runs
 * ({@link InMemoryRun}: the filter and value expressions, window assignment, watermark, lateness and late
 * policy, dedupe, early and update conditions, user aggregations); no Chronicle class is loaded, no JVM flag is
 * needed, nothing touches the disk.
 * <pre>{@code
 * WeirTestDriver driver = WeirTestDriver.create(
 *     Weir.pipeline().keyColumn("card").valueColumn("amount").where("status = 'approved'")
 *         .window(SlidingWindows.of(Duration.ofMinutes(1), Duration.ofSeconds(10))).outOfOrderness(Duration.ofSeconds(5)),
 *     "card:string,amount:decimal(2),status:string");
 * driver.event(1_000, "c1", "12.50", "approved");
 * driver.heartbeat(70_000);
 * List<TestResult> results = driver.readResults();
 * }</pre>
 * The builder is the one a service builds its pipeline with, without {@code journal(...)} (one set is ignored:
 * see {@link PipelineBuilder#concludeFor}). Its own {@code onResult}, {@code onLate} and {@code onApplied}
 * listeners are called too, after the driver has recorded each result or late event, on the caller's thread.
 * <p>
 * The driver plays the journal. Each event and each heartbeat gets the next offset, 0, 1, 2, ... (a real
 * journal's offsets also count its other documents, and are not dense, so assert on offsets relative to the
 * driver's); string values get dictionary ids in order of first occurrence, as a journal's; an event given
 * without an id gets the number of events given before it, 0, 1, 2, .... The values of an event are given as
 * text, one per column in the schema's order, and parsed as an events CSV's fields are ({@link FieldParser}):
 * {@code "12.5"} in a {@code decimal(2)} column is 1250 cents.
 * <p>
 * Not thread-safe: one thread makes the driver and calls it; the listeners are called on that thread.
 */
public final class WeirTestDriver
{
    /** The columns of {@link #create(PipelineBuilder)}: those of a journal created without a schema. */
    public static final String DEFAULT_COLUMNS = "key:string,value:long";

    private final JournalSchema schema;
    private final FieldParser parser;
    private final TestStrings strings;
    private final EventRow event;
    private final InMemoryRun run;
    private final int keyArity;
    private final int scale;
    private final boolean defaultSchema;
    private final List<TestResult> results = new ArrayList<>();
    private final List<TestLateEvent> late = new ArrayList<>();
    private long nextOffset;
    private long events;

    private WeirTestDriver(final PipelineBuilder builder, final JournalSchema schema)
    {
        this.schema = schema;
        this.defaultSchema = schema.isDefault();
        this.parser = new FieldParser(schema);
        this.strings = new TestStrings(schema.size());
        this.event = EventRow.of(schema);
        final PipelineConfiguration config = builder.concludeFor(schema);
        this.scale = config.projection().valueScale();
        this.keyArity = config.projection().keyArity();
        this.run = new InMemoryRun(config, strings, strings::text, new ResultListener()
        {
            @Override
            public void onResult(final WindowResult r)
            {
                onResultRow(r);
            }
        }, new LateListener()
        {
            @Override
            public void onLate(final LateEvent e)
            {
                onLateEvent(e);
            }
        });
    }

    /**
     * A driver for events of the default columns, {@value #DEFAULT_COLUMNS}.
     *
     * @param builder the pipeline's configuration: a window at least; no journal needed.
     * @return the driver.
     * @throws IllegalStateException    if the configuration is incomplete or conflicting, as {@link PipelineBuilder#conclude()}.
     * @throws IllegalArgumentException if a setting is invalid for the columns, as {@link PipelineBuilder#conclude()}.
     */
    public static WeirTestDriver create(final PipelineBuilder builder)
    {
        return create(builder, DEFAULT_COLUMNS);
    }

    /**
     * @param builder the pipeline's configuration: a window at least; no journal needed.
     * @param columns the events' columns, as {@code --columns} takes them, e.g.
     *                {@code card:string,amount:decimal(2),status:string}.
     * @return the driver.
     * @throws IllegalStateException    if the configuration is incomplete or conflicting, as {@link PipelineBuilder#conclude()}.
     * @throws IllegalArgumentException if the columns do not parse, or a setting is invalid for them, as
     *                                  {@link PipelineBuilder#conclude()}.
     */
    public static WeirTestDriver create(final PipelineBuilder builder, final String columns)
    {
        return new WeirTestDriver(Objects.requireNonNull(builder, "builder"), JournalSchema.parse(columns));
    }

    /**
     * Give the pipeline an event, with the next event id (the number of events given before it).
     *
     * @param eventTime the event's time, epoch ms, 0 to 2^62.
     * @param values    one value per column, in the schema's order, as text.
     * @return this.
     * @throws IllegalArgumentException if a value does not parse for its column, or there are not as many values
     *                                  as columns, or the time is out of range; the event is then not given.
     * @throws IllegalStateException    after {@link #end()}.
     */
    public WeirTestDriver event(final long eventTime, final String... values)
    {
        return eventWithId(events, eventTime, values);
    }

    /**
     * Give the pipeline an event with its own id (what {@code dedupe} compares).
     *
     * @param eventId   the event's id.
     * @param eventTime the event's time, epoch ms, 0 to 2^62.
     * @param values    one value per column, in the schema's order, as text.
     * @return this.
     * @throws IllegalArgumentException as {@link #event(long, String...)}.
     * @throws IllegalStateException    after {@link #end()}.
     */
    public WeirTestDriver eventWithId(final long eventId, final long eventTime, final String... values)
    {
        checkTime(eventTime);
        if (values.length != schema.size())
        {
            throw new IllegalArgumentException("expected " + schema.size() + " values (" + schema + "), got " + values.length);
        }
        for (int i = 0; i < values.length; i++)
        {
            parse(i, Objects.requireNonNull(values[i], "value"));
        }
        for (int i = 0; i < values.length; i++)
        {
            if (schema.column(i).type() == ColumnType.STRING)
            {
                event.setString(i, strings.intern(i, values[i]));
            }
        }
        event.eventId(eventId).eventTime(eventTime);
        run.event(nextOffset, event);
        nextOffset++;
        events++;
        return this;
    }

    /**
     * Give the pipeline a heartbeat, as a journal's heartbeat: no event, the watermark advances as an event of
     * that time would move it, firing what it completes (a quiet stream's windows).
     *
     * @param eventTime the heartbeat's time, epoch ms, 0 to 2^62.
     * @return this.
     * @throws IllegalArgumentException if the time is out of range.
     * @throws IllegalStateException    after {@link #end()}.
     */
    public WeirTestDriver heartbeat(final long eventTime)
    {
        checkTime(eventTime);
        run.heartbeat(nextOffset, eventTime);
        nextOffset++;
        return this;
    }

    /**
     * End the input, as a bounded run ends at its journal's end: every open window fires. Nothing can be given
     * after it; the results stay readable.
     *
     * @return this.
     * @throws IllegalStateException if the input has already ended.
     */
    public WeirTestDriver end()
    {
        run.end();
        return this;
    }

    /**
     * @return the results, early and update rows emitted since the last call, in the engine's order; the driver
     *         forgets them.
     */
    public List<TestResult> readResults()
    {
        final List<TestResult> read = List.copyOf(results);
        results.clear();
        return read;
    }

    /**
     * @return the late events side-output since the last call (late policy {@code SIDE}), in arrival order; the
     *         driver forgets them.
     */
    public List<TestLateEvent> readLateEvents()
    {
        final List<TestLateEvent> read = List.copyOf(late);
        late.clear();
        return read;
    }

    /**
     * @return the watermark: the greatest event time seen (events and heartbeats) minus the out-of-orderness;
     *         {@link Long#MIN_VALUE} before the first; {@link Long#MAX_VALUE} after {@link #end()}.
     */
    public long watermark()
    {
        return run.watermark();
    }

    /** @return the offset the next event or heartbeat gets: how many have been given. */
    public long nextOffset()
    {
        return nextOffset;
    }

    private void parse(final int column, final String text)
    {
        final String why;
        if (schema.column(column).type() == ColumnType.STRING)
        {
            why = defaultSchema ? whyBadKey(text) : parser.checkString(column, text);
        }
        else if (parser.parseNumber(column, text, 0, text.length()))
        {
            event.setLong(column, parser.number());
            why = null;
        }
        else
        {
            why = parser.whyNotNumber(column, text);
        }
        if (why != null)
        {
            throw new IllegalArgumentException(why);
        }
    }

    /** In the default schema, the key keeps the key rule of an events CSV's {@code key} field. */
    private static String whyBadKey(final String key)
    {
        final String why = KeyFormat.whyInvalid(key);
        return why == null ? null : why + ": '" + FieldParser.shown(key) + "'";
    }

    private static void checkTime(final long eventTime)
    {
        if (eventTime < 0)
        {
            throw new IllegalArgumentException("event_time is negative: " + eventTime);
        }
        if (eventTime > dev.weir.journal.EventJournal.MAX_EVENT_TIME)
        {
            throw new IllegalArgumentException("event_time is later than " + dev.weir.journal.EventJournal.MAX_EVENT_TIME + ": " + eventTime);
        }
    }

    private void onResultRow(final WindowResult r)
    {
        final long[] aggregates = new long[r.aggregateCount()];
        long presence = 0;
        for (int i = 0; i < aggregates.length; i++)
        {
            aggregates[i] = r.aggregate(i);
            presence |= r.hasAggregate(i) ? 1L << i : 0;
        }
        results.add(new TestResult(r.key().toString(), keyValues(r::keyColumn), r.windowStart(), r.windowEnd(), r.kind(), r.count(), r.sum(), r.min(), r.max(),
            r.version(), aggregates, presence, r.sourceOffset(), scale));
    }

    private void onLateEvent(final LateEvent e)
    {
        late.add(new TestLateEvent(e.eventId(), e.eventTime(), e.key().toString(), keyValues(e::keyColumn), e.value(), e.offset(), scale));
    }

    /** @return each key column's value, as the engine's output gives them. */
    private List<String> keyValues(final java.util.function.IntFunction<CharSequence> column)
    {
        final List<String> values = new ArrayList<>(keyArity);
        for (int i = 0; i < keyArity; i++)
        {
            values.add(column.apply(i).toString());
        }
        return values;
    }
}
