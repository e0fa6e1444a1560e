package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import java.util.function.UnaryOperator;

import dev.weir.engine.expr.EventValue;
import dev.weir.engine.model.GeneratedCase;
import dev.weir.engine.model.Heartbeats;
import dev.weir.engine.model.ModelEvent;
import dev.weir.engine.model.ModelFilters;
import dev.weir.engine.model.ModelOutput;
import dev.weir.engine.model.ReferenceModel;
import dev.weir.engine.model.StreamGenerator;
import dev.weir.engine.model.StreamReducer;
import dev.weir.engine.model.WindowKind;
import dev.weir.engine.support.EngineRun;
import dev.weir.journal.schema.EventView;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Whole pipelines with a filter and a computed value against the {@link ReferenceModel} given the same
 * filter and value as independent lambdas over model events ({@link ModelFilters}), on seeded streams with
 * heartbeats, for every window kind: a filtered-out event still moves the watermark (the watermark belongs to
 * the journal) and is counted as filtered, nothing else. Filters and values written in Java over the event
 * flyweight, and given as text.
 */
@Tag("slow")
class FilterModelTest
{
    private static final int STREAMS = 24;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void javaFiltersAndValuesAgreeWithTheModel(final WindowKind kind)
    {
        // engine: over the journal's columns (fee = 3 * id, amount = the model's value)
        final EventValue net = new EventValue()
        {
            @Override
            public long value(final EventView event)
            {
                return event.longColumn(4) - event.longColumn(1);
            }

            @Override
            public int scale()
            {
                return 2;
            }
        };
        check(kind, "java", b -> b.where(event -> event.longColumn(1) % 9 != 0 && event.longColumn(4) > -40, "fee%9!=0&&amount>-0.40")
                .value(net, "amount-fee(unscaled)"),
            e -> e.eventId() % 3 != 0 && e.value() > -40, e -> e.value() - ModelFilters.fee(e));
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void textFiltersAndValuesAgreeWithTheModel(final WindowKind kind)
    {
        check(kind, "text", b -> b.where("country in ('FR', 'XX') and channel = 'pos' and amount > -0.40").value("amount - fee"),
            e -> ModelFilters.country(e).equals("FR") && ModelFilters.channel(e).equals("pos") && e.value() > -40,
            e -> e.value() - 100 * ModelFilters.fee(e));
    }

    private void check(
        final WindowKind kind, final String name, final UnaryOperator<PipelineBuilder> engineFilter,
        final Predicate<ModelEvent> modelFilter, final ToLongFunction<ModelEvent> modelValue)
    {
        for (int i = 0; i < STREAMS; i++)
        {
            final long seed = 7_000_003L * i + kind.ordinal();
            final GeneratedCase c = Heartbeats.sprinkle(StreamGenerator.generate(seed, kind), seed ^ 0x5DEECE66DL);
            final PipelineLayout layout = PipelineLayout.values()[i % PipelineLayout.values().length];
            final EngineRun engine = EngineRun.pipelineOnColumns(c.events(), c.config(), dir.resolve(name + "-" + kind + "-" + i), layout,
                i % 2 == 0 ? "card" : "merchant", engineFilter);
            final List<ModelEvent> filtered = ModelFilters.apply(c.events(), modelFilter, modelValue);
            final ModelOutput model = ReferenceModel.run(filtered, c.config());
            assertEquals(model.results(), engine.results, () -> "results in emission order, " + layout + "\n" + StreamReducer.describe(c, c.events()));
            assertEquals(model.late(), engine.late, () -> "late rows, " + layout);
            assertEquals(model.dropped(), engine.dropped, "dropped");
            assertEquals(model.ignored(), engine.ignored, "ignored");
            assertEquals(ModelFilters.rejected(c.events(), modelFilter), engine.filtered, "filtered");
        }
    }
}
