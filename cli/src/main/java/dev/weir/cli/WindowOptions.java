package dev.weir.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.weir.engine.EarlyRows;
import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.aggregate.NamedAggregates;
import dev.weir.engine.expr.ColumnProjection;
import dev.weir.engine.join.JoinMissing;
import dev.weir.engine.time.DurationText;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.AlignedWindows;
import dev.weir.engine.window.WindowSpec;
import dev.weir.files.AggregateSpec;
import dev.weir.files.RowColumns;
import dev.weir.files.TimeFormat;
import picocli.CommandLine.Option;

/**
 * The window flags shared by the commands that process a journal. Picocli fills it; read-only after.
 */
final class WindowOptions
{
    @Option(names = "--window", required = true, paramLabel = "SPEC", converter = WindowSpecs.class,
        description = "tumbling:SIZE, sliding:SIZE/SLIDE or session:GAP, each duration with a unit: 500ms, 10s, 5m, 1h or 2d")
    WindowSpec window;

    @Option(names = "--out-of-orderness", paramLabel = "D", converter = Durations.class, defaultValue = "0",
        description = "how far behind the newest event time events may arrive, e.g. 5s (default: ${DEFAULT-VALUE})")
    long outOfOrderness;

    @Option(names = "--allowed-lateness", paramLabel = "A", converter = Durations.class, defaultValue = "0",
        description = "how long after its end a window still accepts events and re-fires, e.g. 1m (default: ${DEFAULT-VALUE})")
    long allowedLateness;

    @Option(names = "--late", paramLabel = "POLICY", defaultValue = "drop", converter = LatePolicyConverter.class,
        description = "drop | side: what happens to events whose windows are all late (default: ${DEFAULT-VALUE})")
    LatePolicy latePolicy;

    @Option(names = "--aggregate", paramLabel = "NAME", split = ",", converter = AggregationConverter.class,
        description = "user aggregations per window beside count, sum, min and max, repeatable or comma-separated: average (the mean "
            + "of the value, rounded down), distinct (approximate distinct values, a 64-register HyperLogLog) or distinct:COLUMN "
            + "(approximate distinct values of any column); one adds an aggregate column, several a column each, named average, "
            + "distinct or distinct_COLUMN (default: none)")
    List<AggregateSpec> aggregates = new ArrayList<>();

    @Option(names = "--aggregates", paramLabel = "LIST",
        description = "named aggregates per window instead of count, sum, min and max, e.g. 'open=first(price),close=last(price),"
            + "volume=sum(qty),vwap=sum(price*qty)/sum(qty),trades=count()': NAME=count(), sum, min, max, first, last or avg of a --value "
            + "expression, approx_distinct(COLUMN), each with an optional filter (where COND), and arithmetic (+ - * /) of those and "
            + "earlier names; at most " + NamedAggregates.MAX + ", a results column each, empty when no event matched (default: none)")
    String namedAggregates;

    @Option(names = "--key", paramLabel = "COLUMN", defaultValue = ColumnProjection.DEFAULT_KEY,
        description = "the column whose values key the windows, or several separated by commas (a composite key, one results column each): string, long or decimal columns (default: ${DEFAULT-VALUE})")
    String keyColumn = ColumnProjection.DEFAULT_KEY;

    @Option(names = "--value", paramLabel = "EXPR",
        description = "what count, sum, min and max aggregate: a long or decimal column, or arithmetic (+ - * and parentheses) "
            + "over such columns and numbers, e.g. 'amount - fee' (files name an expression's column value) (default: "
            + ColumnProjection.DEFAULT_VALUE + "; none with --aggregates)")
    String valueColumn;

    @Option(names = "--where", paramLabel = "EXPR",
        description = "process only the events that match EXPR, e.g. \"channel = 'online' and country in ('FR', 'DE')\": comparisons "
            + "(= != < <= > >=) of columns, numbers and 'strings', arithmetic, in (...), and, or, not, parentheses; the others still "
            + "move the watermark and are counted as filtered (default: every event)")
    String where;

    @Option(names = "--join", paramLabel = "TABLE[:TCOL=ECOL,...]",
        description = "join a table of the journal as of each event's time: the row of the event's key with the greatest valid-from "
            + "at or before the event's time, among the rows appended before the event. The key is read from the event columns named "
            + "like the table's key, or as named (--join cards:card=payer_card). Expressions name its columns TABLE.COLUMN. "
            + "Repeatable, one table each (default: no join)")
    List<String> joins = new ArrayList<>();

    @Option(names = "--join-missing", paramLabel = "drop|keep", defaultValue = "drop", converter = JoinMissingConverter.class,
        description = "what becomes of an event a join finds no row for: drop (it moves the watermark and is counted as unmatched) "
            + "or keep (the table's columns read their declared defaults) (default: ${DEFAULT-VALUE})")
    JoinMissing joinMissing = JoinMissing.DROP;

    @Option(names = "--time-format", paramLabel = "epoch|iso", defaultValue = "epoch",
        description = "how results and late-events files print window_start, window_end and event_time: epoch milliseconds or ISO-8601 UTC "
            + "(2026-12-02T09:30:00Z, .SSS only when the milliseconds are not zero) (default: ${DEFAULT-VALUE})")
    TimeFormat timeFormat = TimeFormat.epoch;

    @Option(names = "--emit", paramLabel = "ROWS", defaultValue = "final", converter = EmitConverter.class,
        description = "final | updates: with updates, every event added to a window whose end the watermark has not passed "
            + "also gives an update row with the window's current aggregate (rows get a kind column) (default: ${DEFAULT-VALUE})")
    String emit = "final";

    @Option(names = "--early-when", paramLabel = "EXPR",
        description = "a window emits one early row at the first event that makes EXPR true, e.g. 'sum>=5000.00' or "
            + "'count>8 and max>100'. EXPR compares count, sum, min, max, aggregate or aggregateN (with --aggregates: count and "
            + "the aggregates' names, e.g. 'declines>=3') with a number or a number column of the event, e.g. 'sum>cards.limit' (< <= > >= = !=), "
            + "joined with and/or and parentheses. Rows get a kind column")
    String earlyWhen;

    @Option(names = "--early-once", paramLabel = "SCOPE", converter = EarlyOnceConverter.class,
        description = "key: one early row per key while its overlapping sliding windows are open, not one per window. A window "
            + "emits its early row only if no overlapping window of its key has emitted one and not fired yet. Needs --early-when "
            + "and a slide less than the size (default: every window its own)")
    String earlyOnce;

    /**
     * The checks across window flags that the engine would only make once the run has begun (after an ingest).
     *
     * @throws BadInputException if {@code --aggregates} does not parse or is given with {@code --value} or {@code --aggregate},
     *                           or {@code --early-once} is given without {@code --early-when}, or with windows of a key that
     *                           never overlap.
     */
    void check()
    {
        try
        {
            columns(); // the rows refuse --aggregates with --value or --aggregate, as the pipeline does
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
        if (earlyOnce == null)
        {
            return;
        }
        if (earlyWhen == null)
        {
            throw new BadInputException("--early-once key needs --early-when EXPR");
        }
        final String problem = EarlyRows.oncePerKeyProblem(window);
        if (problem != null)
        {
            throw new BadInputException("--early-once key needs overlapping windows: " + problem);
        }
    }

    /**
     * Say on standard error, as a run starts, what the flags accept but may not mean: sliding windows whose slide
     * exceeds their size leave events in no window (counted in the summary, not aggregated).
     *
     * @param err where to say it.
     */
    void warn(final PrintStream err)
    {
        if (window instanceof AlignedWindows aligned && aligned.uncoveredPerSlide() > 0)
        {
            err.println("weir: warning: " + window.text() + ": slide is greater than size; events in "
                + DurationText.format(aligned.uncoveredPerSlide()) + " of every " + DurationText.format(aligned.slide())
                + " fall in no window and are counted, not aggregated");
        }
    }

    PipelineBuilder applyTo(final PipelineBuilder builder)
    {
        try
        {
            final PipelineBuilder configured = builder.window(window).outOfOrderness(Duration.ofMillis(outOfOrderness))
                .allowedLateness(Duration.ofMillis(allowedLateness)).latePolicy(latePolicy).keyColumn(keyColumn).emitUpdates(emitUpdates());
            if (named() != null)
            {
                configured.aggregates(named());
            }
            if (value() != null)
            {
                configured.valueColumn(value()); // the pipeline refuses a value given beside named aggregates
            }
            if (where != null)
            {
                configured.where(where);
            }
            if (earlyWhen != null)
            {
                configured.earlyWhen(earlyWhen);
            }
            if (earlyOnce != null)
            {
                configured.earlyOncePerKey(true);
            }
            for (final AggregateSpec spec : aggregates())
            {
                configured.aggregate(spec.aggregation());
            }
            for (final String join : joins)
            {
                final int colon = join.indexOf(':');
                if (colon < 0)
                {
                    configured.join(join);
                }
                else
                {
                    final String[] pairs = join.substring(colon + 1).split(",", -1);
                    for (final String pair : pairs)
                    {
                        if (pair.indexOf('=') <= 0 || pair.indexOf('=') == pair.length() - 1)
                        {
                            throw new BadInputException("--join " + join + ": after the table, give key columns as TCOL=ECOL, comma-separated"
                                + " (e.g. --join cards:card=payer_card)");
                        }
                    }
                    configured.join(join.substring(0, colon), pairs);
                }
            }
            configured.joinMissing(joinMissing);
            return configured;
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
    }

    String describe()
    {
        return window.text() + ", out-of-orderness " + DurationText.format(outOfOrderness) + ", allowed lateness "
            + DurationText.format(allowedLateness) + ", late " + latePolicy.name().toLowerCase(java.util.Locale.ROOT) + describeAggregates()
            + (named() != null ? ", key " + keyColumn + ", aggregates " + named().text()
                : keyColumn.equals(ColumnProjection.DEFAULT_KEY) && value().equals(ColumnProjection.DEFAULT_VALUE) ? ""
                : ", key " + keyColumn + ", value " + value())
            + (where != null ? ", where " + where : "") + (emitUpdates() ? ", update rows" : "") + (earlyWhen != null ? ", early when " + earlyWhen : "")
            + (earlyOnce != null ? ", early once per key" : "")
            + (joins.isEmpty() ? "" : ", join " + String.join(" ", joins) + (joinMissing == JoinMissing.KEEP ? " (missing rows kept)" : ""));
    }

    private String describeAggregates()
    {
        if (aggregates.isEmpty())
        {
            return "";
        }
        if (aggregates.size() == 1)
        {
            return ", aggregate " + aggregates.get(0).aggregation().name();
        }
        final StringBuilder b = new StringBuilder(", aggregates");
        for (int i = 0; i < aggregates.size(); i++)
        {
            b.append(i == 0 ? " " : ", ").append(aggregates.get(i).aggregation().name());
        }
        return b.toString();
    }

    /**
     * @return the named aggregates of {@code --aggregates}, or null without it.
     * @throws BadInputException if the list does not parse (the message names the position in it).
     */
    NamedAggregates named()
    {
        if (namedAggregates == null)
        {
            return null;
        }
        try
        {
            return NamedAggregates.parse(namedAggregates);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException("--aggregates: " + ex.getMessage());
        }
    }

    /** @return the value expression: {@code --value}, else the default one, or null with {@code --aggregates}. */
    String value()
    {
        return valueColumn != null ? valueColumn : namedAggregates != null ? null : ColumnProjection.DEFAULT_VALUE;
    }

    /**
     * @return the user aggregations, in the order given.
     * @throws BadInputException if one is named twice.
     */
    List<AggregateSpec> aggregates()
    {
        final Set<String> names = new HashSet<>();
        for (final AggregateSpec spec : aggregates)
        {
            if (!names.add(spec.text()))
            {
                throw new BadInputException("--aggregate names " + spec.text() + " twice");
            }
        }
        return aggregates;
    }

    /**
     * @return the columns the pipeline's rows show.
     */
    RowColumns columns()
    {
        final List<String> tables = new ArrayList<>();
        for (final String join : joins)
        {
            tables.add(join.indexOf(':') < 0 ? join : join.substring(0, join.indexOf(':')));
        }
        return new RowColumns(keyColumn, value(), aggregates(), emitUpdates(), earlyWhen, where, timeFormat, tables, named());
    }

    /** @return true with {@code --emit updates}. */
    boolean emitUpdates()
    {
        return emit.equals("updates");
    }

    /** Parses {@code average}, {@code distinct} and {@code distinct:COLUMN}. Stateless. */
    static final class AggregationConverter implements picocli.CommandLine.ITypeConverter<AggregateSpec>
    {
        @Override
        public AggregateSpec convert(final String value)
        {
            try
            {
                return AggregateSpec.parse(value);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new picocli.CommandLine.TypeConversionException(ex.getMessage());
            }
        }
    }

    /** Accepts {@code final} and {@code updates}. Stateless. */
    static final class EmitConverter implements picocli.CommandLine.ITypeConverter<String>
    {
        @Override
        public String convert(final String value)
        {
            if (!value.equals("final") && !value.equals("updates"))
            {
                throw new picocli.CommandLine.TypeConversionException("--emit is final or updates: " + value);
            }
            return value;
        }
    }

    /** Accepts {@code key}, the one scope of early rows once. Stateless. */
    static final class EarlyOnceConverter implements picocli.CommandLine.ITypeConverter<String>
    {
        @Override
        public String convert(final String value)
        {
            if (!value.equals("key"))
            {
                throw new picocli.CommandLine.TypeConversionException("--early-once takes key (one early row per key per crossing): " + value);
            }
            return value;
        }
    }

    /** Parses {@code drop} and {@code keep}. Stateless. */
    static final class JoinMissingConverter implements picocli.CommandLine.ITypeConverter<JoinMissing>
    {
        @Override
        public JoinMissing convert(final String value)
        {
            try
            {
                return JoinMissing.parse(value);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new picocli.CommandLine.TypeConversionException(ex.getMessage());
            }
        }
    }

    /** Parses {@code drop} and {@code side}. */
    static final class LatePolicyConverter implements picocli.CommandLine.ITypeConverter<LatePolicy>
    {
        @Override
        public LatePolicy convert(final String value)
        {
            try
            {
                return LatePolicy.parse(value);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new picocli.CommandLine.TypeConversionException(ex.getMessage());
            }
        }
    }
}
