package dev.weir.engine;

import static dev.weir.engine.model.ModelCall.call;
import static dev.weir.engine.model.ModelCall.count;
import static dev.weir.engine.model.ModelValue.amount;
import static dev.weir.engine.model.ModelValue.eventId;
import static dev.weir.engine.model.ModelValue.eventTime;
import static dev.weir.engine.model.ModelValue.fee;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

import dev.weir.engine.model.GeneratedCase;
import dev.weir.engine.model.Heartbeats;
import dev.weir.engine.model.ModelAggregates;
import dev.weir.engine.model.ModelArithmetic;
import dev.weir.engine.model.ModelCall;
import dev.weir.engine.model.ModelConfig;
import dev.weir.engine.model.ModelEvent;
import dev.weir.engine.model.ModelFilters;
import dev.weir.engine.model.ModelOptions;
import dev.weir.engine.model.ModelOutput;
import dev.weir.engine.model.ModelResult;
import dev.weir.engine.model.ModelValue;
import dev.weir.engine.model.ReferenceModel;
import dev.weir.engine.model.StreamGenerator;
import dev.weir.engine.model.StreamReducer;
import dev.weir.engine.model.WindowKind;
import dev.weir.engine.support.EngineRun;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Whole pipelines with named aggregates ({@code PipelineBuilder.aggregates}) against the {@link ReferenceModel}
 * given the same aggregates as its own definitions ({@link ModelAggregates}), computed exactly over the events of
 * each window: first/last by (event time, journal offset) on streams with many ties of event time, filters,
 * result expressions with their scales, half-even division, empties, division by zero and values that do not fit.
 * Seeded streams (out of order, late events, heartbeats) for every window kind, under both late policies with
 * and without allowed lateness (re-fired versions), with and without update rows, and with early conditions
 * over the named aggregates, and behind a pipeline filter. The number of streams per
 * window kind is {@code -Dweir.model.named.streams} (24 by default). A failure prints its seed and a reduced stream.
 */
@Tag("slow")
class NamedAggregatesModelTest
{
    private static final int STREAMS = Integer.getInteger("weir.model.named.streams", 24);

    /** The lists, cycled over the streams. */
    private static final List<ModelAggregates> LISTS = List.of(candles(), filtered(), resultExpressions(), empties());

    @TempDir
    Path dir;

    private int runs;

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void finalRowsAgreeWithTheModel(final WindowKind kind)
    {
        for (int i = 0; i < STREAMS; i++)
        {
            check(namedCase(9_000_011L * i + kind.ordinal(), kind, i), LISTS.get(i % LISTS.size()), ModelOptions.NONE, Where.NONE, i);
        }
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void updateRowsAgreeWithTheModel(final WindowKind kind)
    {
        for (int i = 0; i < STREAMS / 2; i++)
        {
            check(namedCase(5_000_077L * i + kind.ordinal(), kind, i), LISTS.get((i + 1) % LISTS.size()), new ModelOptions(true, null, null), Where.NONE, i);
        }
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void earlyRowsOnNamedAggregatesAgreeWithTheModel(final WindowKind kind)
    {
        for (int i = 0; i < STREAMS / 2; i++)
        {
            final ModelAggregates aggregates = switch (i % 3)
            {
                case 0 -> candles().earlyWhen("trades >= 3 and high > 5.00",
                    w -> compares(w.value("trades"), "3", c -> c >= 0) && compares(w.value("high"), "5.00", c -> c > 0));
                case 1 -> filtered().earlyWhen("count >= 4 and share < 0.5 or mean >= 2.5",
                    w -> w.count() >= 4 && compares(w.value("share"), "0.5", c -> c < 0) || compares(w.value("mean"), "2.5", c -> c >= 0));
                default -> empties().earlyWhen("big > 9.50 or n >= 2", w -> compares(w.value("big"), "9.50", c -> c > 0)
                    || compares(w.value("n"), "2", c -> c >= 0));
            };
            check(namedCase(3_000_233L * i + kind.ordinal(), kind, i), aggregates, new ModelOptions(i % 2 == 0, null, null), Where.NONE, i);
        }
    }

    @ParameterizedTest
    @EnumSource(WindowKind.class)
    void aPipelineFilterBeforeNamedAggregatesAgreesWithTheModel(final WindowKind kind)
    {
        final Where where = new Where("channel = 'pos' or amount < -2.00", e -> ModelFilters.channel(e).equals("pos") || e.value() < -200);
        for (int i = 0; i < STREAMS / 4; i++)
        {
            check(namedCase(7_000_121L * i + kind.ordinal(), kind, i), LISTS.get((i + 2) % LISTS.size()), ModelOptions.NONE, where, i);
        }
    }

    /**
     * Edges the seeded streams reach only by chance: a sum that wraps back to a small number (the mean is the wrapped
     * sum's), halves at the seventh decimal (rounded to even, negative ones too), a square that does not fit, and
     * ties of event time across and within keys.
     */
    @Test
    void wrappedSumsHalvesAndSquaresThatDoNotFitAgreeWithTheModel()
    {
        final long quarter = 1L << 62;
        final List<ModelEvent> events = List.of(
            new ModelEvent(1, 1, "wrap", quarter), new ModelEvent(2, 2, "wrap", quarter), new ModelEvent(3, 3, "wrap", 100),
            new ModelEvent(4, 2, "wrap", quarter), new ModelEvent(5, 1, "wrap", quarter),
            new ModelEvent(6, 4, "up", 300),
            new ModelEvent(7, 5, "down", -100), new ModelEvent(8, 5, "down", -200),
            new ModelEvent(9, 6, "huge", Long.MAX_VALUE), new ModelEvent(10, 6, "huge", 1),
            new ModelEvent(11, 9, "ties", -300), new ModelEvent(12, 7, "ties", 1), new ModelEvent(13, 9, "ties", 2), new ModelEvent(14, 7, "ties", 3),
            new ModelEvent(15, 12, "down", 5));
        final ModelCall total = call("sum", amount());
        final ModelAggregates edges = new ModelAggregates("mean=avg(amount),half=sum(amount)/2000000,third=sum(amount)/3,"
            + "neg_half=-sum(amount)/2000000,square=sum(amount)*sum(amount),o=first(event_id),c=last(event_id)")
            .with("mean", call("avg", amount()))
            .with("half", total.dividedBy(ModelArithmetic.literal("2000000")))
            .with("third", total.dividedBy(ModelArithmetic.literal("3")))
            .with("neg_half", total.negated().dividedBy(ModelArithmetic.literal("2000000")))
            .with("square", total.times(total))
            .with("o", call("first", eventId()))
            .with("c", call("last", eventId()));
        for (int i = 0; i < PipelineLayout.values().length; i++)
        {
            check(new GeneratedCase(i, ModelConfig.tumbling(10, 100, 0, false), events), edges, ModelOptions.NONE, Where.NONE, i);
        }
    }

    /** A comparison of an aggregate with a literal: false when the aggregate is empty. */
    private static boolean compares(final BigDecimal value, final String literal, final IntPredicate sign)
    {
        return value != null && sign.test(value.compareTo(new BigDecimal(literal)));
    }

    /** Open, high, low, close, volume, vwap and trades; the ids of the first and last event show the ties. */
    private static ModelAggregates candles()
    {
        return new ModelAggregates("open=first(amount),high=max(amount),low=min(amount),close=last(amount),volume=sum(fee),"
            + "vwap=sum(amount*fee)/sum(fee),trades=count(),first_id=first(event_id),last_id=last(event_id)")
            .with("open", call("first", amount()))
            .with("high", call("max", amount()))
            .with("low", call("min", amount()))
            .with("close", call("last", amount()))
            .with("volume", call("sum", fee()))
            .with("vwap", call("sum", amount().times(fee())).dividedBy(call("sum", fee())))
            .with("trades", count())
            .with("first_id", call("first", eventId()))
            .with("last_id", call("last", eventId()));
    }

    /** Filters (keywords in any case), names of earlier aggregates, avg. */
    private static ModelAggregates filtered()
    {
        final ModelResult fr = count().where(e -> ModelFilters.country(e).equals("FR"));
        final ModelResult pos = call("sum", amount()).where(e -> ModelFilters.channel(e).equals("pos") && e.value() > 0);
        return new ModelAggregates("fr=count() filter (where country = 'FR'), pos = sum(amount) filter (where channel = 'pos' and amount > 0),"
            + "neg=min(amount) FILTER (WHERE amount < 0),net=pos - sum(amount),share=fr / count(),mean=avg(amount),"
            + "fr_close=last(amount) filter (where country='FR'),de_open=first(event_time) filter (where country = 'DE')")
            .with("fr", fr)
            .with("pos", pos)
            .with("neg", call("min", amount()).where(e -> e.value() < 0))
            .with("net", pos.minus(call("sum", amount())))
            .with("share", fr.dividedBy(count()))
            .with("mean", call("avg", amount()))
            .with("fr_close", call("last", amount()).where(e -> ModelFilters.country(e).equals("FR")))
            .with("de_open", call("first", eventTime()).where(e -> ModelFilters.country(e).equals("DE")));
    }

    /** Result expressions: literals at their scales, unary minus, parentheses, a VALUE with its own arithmetic. */
    private static ModelAggregates resultExpressions()
    {
        return new ModelAggregates("spread=max(amount) - min(amount),mid=(max(amount) + min(amount)) / 2,"
            + "x=-(first(amount) * 2.5) + 1.25,fees=avg(fee - event_id) filter (where fee > 30),"
            + "per_ms=count() / (last(event_time) - first(event_time)),scaled=sum(amount * 3 - fee)")
            .with("spread", call("max", amount()).minus(call("min", amount())))
            .with("mid", call("max", amount()).plus(call("min", amount())).dividedBy(ModelArithmetic.literal("2")))
            .with("x", call("first", amount()).times(ModelArithmetic.literal("2.5")).negated().plus(ModelArithmetic.literal("1.25")))
            .with("fees", call("avg", fee().minus(eventId())).where(e -> ModelFilters.fee(e) > 30))
            .with("per_ms", count().dividedBy(call("last", eventTime()).minus(call("first", eventTime()))))
            .with("scaled", call("sum", amount().times(ModelValue.literal("3")).minus(fee())));
    }

    /** Values that are often empty: a filter that keeps little or nothing, a division by zero, a product that does not fit. */
    private static ModelAggregates empties()
    {
        final ModelCall big = call("max", amount()).where(e -> e.value() > 900);
        return new ModelAggregates("big=max(amount) filter (where amount > 9.00),none=sum(fee) filter (where fee < 0),"
            + "ratio=sum(amount) / (count() - count()),square=max(amount) * max(amount),half=big / 2,"
            + "n=count() filter (where amount > 9.00)")
            .with("big", big)
            .with("none", call("sum", fee()).where(e -> ModelFilters.fee(e) < 0))
            .with("ratio", call("sum", amount()).dividedBy(count().minus(count())))
            .with("square", call("max", amount()).times(call("max", amount())))
            .with("half", big.dividedBy(ModelArithmetic.literal("2")))
            .with("n", count().where(e -> e.value() > 900));
    }

    /**
     * A generated stream with many ties of event time (times rounded down to a small step for most streams),
     * heartbeats in every other one, and the late policy and allowed lateness chosen by {@code i}: drop and side,
     * each with none and with some, so windows re-fire.
     */
    private static GeneratedCase namedCase(final long seed, final WindowKind kind, final int i)
    {
        final GeneratedCase generated = StreamGenerator.generate(seed, kind);
        final SplittableRandom r = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
        final long step = 1 + r.nextInt(5);
        final List<ModelEvent> events = new ArrayList<>();
        for (final ModelEvent e : generated.events())
        {
            events.add(new ModelEvent(e.eventId(), e.eventTime() - e.eventTime() % step, e.key(), e.value()));
        }
        final ModelConfig c = generated.config();
        final long lateness = i % 4 < 2 ? 0 : 1 + r.nextInt(120);
        final ModelConfig config = new ModelConfig(kind, c.size(), c.slide(), c.outOfOrderness(), lateness, i % 2 == 0);
        final GeneratedCase tied = new GeneratedCase(seed, config, events);
        return i % 2 == 0 ? tied : Heartbeats.sprinkle(tied, seed ^ 0x5DEECE66DL);
    }

    private void check(final GeneratedCase c, final ModelAggregates aggregates, final ModelOptions options, final Where where, final int i)
    {
        final PipelineLayout layout = PipelineLayout.values()[i % PipelineLayout.values().length];
        final String keyColumn = i % 3 == 0 ? "merchant" : "card";
        final String difference = difference(c.events(), c.config(), aggregates, options, where, layout, keyColumn);
        if (difference != null)
        {
            final List<ModelEvent> reduced = StreamReducer.reduce(c,
                events -> difference(events, c.config(), aggregates, options, where, layout, keyColumn) != null);
            fail(difference(reduced, c.config(), aggregates, options, where, layout, keyColumn) + "\n" + aggregates + " " + options + where
                + " keyed by " + keyColumn + ", " + layout + "\n" + StreamReducer.describe(c, reduced));
        }
    }

    private String difference(
        final List<ModelEvent> events, final ModelConfig config, final ModelAggregates aggregates, final ModelOptions options,
        final Where where, final PipelineLayout layout, final String keyColumn)
    {
        final ModelOutput model = ReferenceModel.run(ModelFilters.apply(events, where.keep(), ModelEvent::value), config, options, aggregates);
        final EngineRun engine;
        try
        {
            engine = EngineRun.pipelineOnColumns(events, config, dir.resolve("run-" + runs++), layout, keyColumn,
                b -> where.on(early(b.aggregates(aggregates.text()).emitUpdates(options.updates()), aggregates)));
        }
        catch (final RuntimeException ex)
        {
            return "engine threw " + ex;
        }
        if (!model.results().equals(engine.results))
        {
            return "results differ (" + names(aggregates) + ")\n model:  " + model.results() + "\n engine: " + engine.results;
        }
        if (!model.late().equals(engine.late))
        {
            return "late rows differ\n model:  " + model.late() + "\n engine: " + engine.late;
        }
        if (ModelFilters.rejected(events, where.keep()) != engine.filtered)
        {
            return "filtered: model " + ModelFilters.rejected(events, where.keep()) + ", engine " + engine.filtered;
        }
        if (model.dropped() != engine.dropped || model.sideOutput() != engine.sideOutput || model.ignored() != engine.ignored)
        {
            return "counters differ: model dropped/side/ignored " + model.dropped() + "/" + model.sideOutput() + "/" + model.ignored()
                + ", engine " + engine.dropped + "/" + engine.sideOutput + "/" + engine.ignored;
        }
        return null;
    }

    /**
     * The pipeline's {@code --where}: its text for the engine and the model's predicate; an event it rejects only
     * moves the watermark ({@link ModelFilters#apply}).
     */
    private record Where(String text, Predicate<ModelEvent> keep)
    {
        static final Where NONE = new Where(null, e -> true);

        PipelineBuilder on(final PipelineBuilder builder)
        {
            return text == null ? builder : builder.where(text);
        }

        @Override
        public String toString()
        {
            return text == null ? "" : " --where '" + text + "'";
        }
    }

    private static PipelineBuilder early(final PipelineBuilder builder, final ModelAggregates aggregates)
    {
        return aggregates.earlyText() == null ? builder : builder.earlyWhen(aggregates.earlyText());
    }

    private static String names(final ModelAggregates aggregates)
    {
        return "start,end,key," + String.join(",", aggregates.names()) + ",version";
    }
}
