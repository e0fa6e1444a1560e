package dev.weir.engine.model;

import static dev.weir.engine.model.ModelCall.call;
import static dev.weir.engine.model.ModelCall.count;
import static dev.weir.engine.model.ModelValue.amount;
import static dev.weir.engine.model.ModelValue.eventId;
import static dev.weir.engine.model.ModelValue.fee;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The model of named aggregates on windows worked out by hand: first/last by event time with ties broken by
 * journal order (sessions merge their events back into journal order), scales, half-even division, empties,
 * division by zero, a value that does not fit, and wrapping sums.
 */
class ModelAggregatesTest
{
    @Test
    void firstAndLastAreByEventTimeThenJournalOrder()
    {
        final ModelAggregates ids = new ModelAggregates("f=first(event_id),l=last(event_id),o=first(amount),c=last(amount)")
            .with("f", call("first", eventId())).with("l", call("last", eventId())).with("o", call("first", amount())).with("c", call("last", amount()));
        final List<ModelEntry> window = List.of(
            entry(5, 20, 150, 0), entry(6, 10, -5, 1), entry(7, 10, 7, 2), entry(8, 20, 1, 3), entry(9, 15, 0, 4));
        assertEquals("6,8,-0.05,0.01", ids.fields(window));
    }

    @Test
    void aSessionMergeKeepsTheEventsInJournalOrder()
    {
        final ModelAggregates ids = new ModelAggregates("f=first(event_id),l=last(event_id)")
            .with("f", call("first", eventId())).with("l", call("last", eventId()));
        // one key, gap 16: events 1 (t=0) and 2 (t=30) open two sessions; 3 (t=15) joins them; 4 (t=0) and 5 (t=30) tie.
        final List<ModelEvent> events = List.of(
            new ModelEvent(1, 0, "k", 1), new ModelEvent(2, 30, "k", 1), new ModelEvent(3, 15, "k", 1),
            new ModelEvent(4, 0, "k", 1), new ModelEvent(5, 30, "k", 1));
        final ModelOutput output = ReferenceModel.run(events, ModelConfig.session(16, 100, 0, false), ModelOptions.NONE, ids);
        assertEquals(List.of("0,46,k,1,5,0"), output.results());
    }

    @Test
    void resultExpressionsHaveTheirScalesRoundHalfEvenAndAreEmptyWhenAnOperandIsOrTheDivisorIsZero()
    {
        final ModelCall volume = call("sum", fee());
        final ModelAggregates list = new ModelAggregates("vwap=sum(amount*fee)/sum(fee),mean=avg(amount),half=count()/8,...")
            .with("vwap", call("sum", amount().times(fee())).dividedBy(volume))
            .with("mean", call("avg", amount()))
            .with("half", count().dividedBy(ModelArithmetic.literal("8")))
            .with("zero", count().dividedBy(count().minus(count())))
            .with("big", call("max", amount()).where(e -> e.value() > 1000))
            .with("x", call("max", amount()).where(e -> e.value() > 1000).plus(count()))
            .with("n", count().where(e -> e.value() > 1000))
            .with("neg", call("first", amount()).times(ModelArithmetic.literal("2.5")).negated().plus(ModelArithmetic.literal("1.25")));
        // fee = 3 * id: 3 and 6; amounts 1.00 and 0.01: vwap = (3.00 + 0.06) / 9 = 0.34
        final List<ModelEntry> window = List.of(entry(1, 0, 100, 0), entry(2, 1, 1, 1));
        assertEquals("0.340000,0.505000,0.250000,,,,0,-1.250", list.fields(window));
        final ModelAggregates third = new ModelAggregates("t=count()/3,s=sum(amount)/(count()*16000000)")
            .with("t", count().dividedBy(ModelArithmetic.literal("3")))
            .with("s", call("sum", amount()).dividedBy(count().times(ModelArithmetic.literal("16000000"))));
        // 2/3 = 0.666667; 1.01 / 32,000,000 = 0.0000000315625 -> 0.000000
        assertEquals("0.666667,0.000000", third.fields(window));
        final ModelAggregates tie = new ModelAggregates("h=sum(amount)/2000000")
            .with("h", call("sum", amount()).dividedBy(ModelArithmetic.literal("2000000")));
        // 1.01 / 2,000,000 = 0.000000505 -> 0.000001; halves: 0.0000005 -> 0.000000, 0.0000015 -> 0.000002 (to even)
        assertEquals("0.000001", tie.fields(window));
        assertEquals("0.000000", tie.fields(List.of(entry(1, 0, 100, 0))));
        assertEquals("0.000002", tie.fields(List.of(entry(1, 0, 300, 0))));
    }

    @Test
    void aSumWrapsAMeanIsTheWrappedSumsAndAProductThatDoesNotFitIsEmpty()
    {
        final ModelAggregates list = new ModelAggregates("s=sum(amount),p=max(amount)*max(amount),m=avg(amount)")
            .with("s", call("sum", amount()))
            .with("p", call("max", amount()).times(call("max", amount())))
            .with("m", call("avg", amount()));
        final List<ModelEntry> window = List.of(entry(1, 0, Long.MAX_VALUE, 0), entry(2, 0, 2, 1));
        assertEquals(BigDecimal.valueOf(Long.MIN_VALUE + 1, 2).toPlainString() + ",,", list.fields(window));
        // the mean is the wrapped sum's: 4 x 2^62 + 1.00 wraps to 1.00, over 5
        final List<ModelEntry> wraps = List.of(entry(1, 0, 1L << 62, 0), entry(2, 0, 1L << 62, 1), entry(3, 0, 100, 2),
            entry(4, 0, 1L << 62, 3), entry(5, 0, 1L << 62, 4));
        assertEquals("1.00,,0.200000", list.fields(wraps));
    }

    private static ModelEntry entry(final long id, final long time, final long amount, final long offset)
    {
        return new ModelEntry(new ModelEvent(id, time, "k", amount), offset);
    }
}
