package dev.weir.cli;

import dev.weir.engine.PipelineBuilder;
import dev.weir.engine.aggregate.Aggregation;
import dev.weir.engine.aggregate.ApproxDistinct;
import dev.weir.engine.aggregate.Average;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.WindowSpec;
import dev.weir.engine.source.ColumnProjection;
import picocli.CommandLine.Option;

/**
 * The window flags shared by the commands that process a journal. Picocli fills it; read-only after.
 */
final class WindowOptions
{
    @Option(names = "--window", required = true, paramLabel = "SPEC", converter = WindowSpecs.class,
        description = "tumbling:SIZE, sliding:SIZE/SLIDE or session:GAP (durations: 500ms, 10s, 5m, 1h; bare = ms)")
    WindowSpec window;

    @Option(names = "--out-of-orderness", paramLabel = "D", converter = Durations.class, defaultValue = "0",
        description = "how far behind the newest event time events may arrive (default: ${DEFAULT-VALUE} ms)")
    long outOfOrderness;

    @Option(names = "--allowed-lateness", paramLabel = "A", converter = Durations.class, defaultValue = "0",
        description = "how long after its end a window still accepts events and re-fires (default: ${DEFAULT-VALUE} ms)")
    long allowedLateness;

    @Option(names = "--late", paramLabel = "POLICY", defaultValue = "drop", converter = LatePolicyConverter.class,
        description = "drop | side: what happens to events whose windows are all late (default: ${DEFAULT-VALUE})")
    LatePolicy latePolicy;

    @Option(names = "--aggregate", paramLabel = "NAME", converter = AggregationConverter.class,
        description = "a user aggregation per window beside count, sum, min and max: average (the mean, rounded down) or distinct "
            + "(approximate distinct values, a 64-register HyperLogLog); adds an aggregate column (default: none)")
    Aggregation aggregation;

    @Option(names = "--key", paramLabel = "COLUMN", defaultValue = ColumnProjection.DEFAULT_KEY,
        description = "the column whose values key the windows, or several separated by commas (a composite key, one results column each): string, long or decimal columns (default: ${DEFAULT-VALUE})")
    String keyColumn = ColumnProjection.DEFAULT_KEY;

    @Option(names = "--value", paramLabel = "COLUMN", defaultValue = ColumnProjection.DEFAULT_VALUE,
        description = "the long or decimal column that count, sum, min and max aggregate (default: ${DEFAULT-VALUE})")
    String valueColumn = ColumnProjection.DEFAULT_VALUE;

    PipelineBuilder applyTo(final PipelineBuilder builder)
    {
        try
        {
            final PipelineBuilder configured = builder.window(window).outOfOrderness(outOfOrderness).allowedLateness(allowedLateness)
                .latePolicy(latePolicy).keyColumn(keyColumn).valueColumn(valueColumn);
            return aggregation == null ? configured : configured.aggregate(aggregation);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException(ex.getMessage());
        }
    }

    String describe()
    {
        return window.describe() + ", out-of-orderness " + outOfOrderness + " ms, allowed lateness " + allowedLateness
            + " ms, late " + latePolicy.name().toLowerCase(java.util.Locale.ROOT) + (aggregation == null ? "" : ", aggregate " + aggregation.name())
            + (keyColumn.equals(ColumnProjection.DEFAULT_KEY) && valueColumn.equals(ColumnProjection.DEFAULT_VALUE) ? ""
                : ", key " + keyColumn + ", value " + valueColumn);
    }

    /**
     * @return true if results carry a user aggregation's value (the files get an {@code aggregate} column).
     */
    boolean withAggregate()
    {
        return aggregation != null;
    }

    /**
     * @return the columns the pipeline's rows show.
     */
    RowColumns columns()
    {
        return new RowColumns(keyColumn, valueColumn, withAggregate(), aggregation instanceof dev.weir.engine.aggregate.Average);
    }

    /** Parses {@code average} and {@code distinct} into a new aggregation. Stateless. */
    static final class AggregationConverter implements picocli.CommandLine.ITypeConverter<Aggregation>
    {
        @Override
        public Aggregation convert(final String value)
        {
            switch (value)
            {
                case "average":
                    return new Average();
                case "distinct":
                    return new ApproxDistinct();
                default:
                    throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not an aggregation: average or distinct");
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
