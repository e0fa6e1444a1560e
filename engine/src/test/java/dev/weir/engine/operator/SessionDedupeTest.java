package dev.weir.engine.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.emit.LateListener;
import dev.weir.engine.source.EventSlot;
import dev.weir.engine.window.SessionWindows;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The dedupe rule for sessions (gap 10, A 5, D 0), on a session that stays open: a retry of an event at t
 * is caught while {@code t + gap + A > wm}; once {@code t + gap + A <= wm} its id may be forgotten, and any
 * event at t is then late (dropped) under dedupe, not merged into the open session, so a retry changes
 * nothing either way. Without dedupe, an event that late still merges into the open session (merge before
 * the lateness check).
 */
class SessionDedupeTest
{
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aRetryIsCaughtUntilItsOwnWindowIsLateThenItIsLate(final boolean dedupe)
    {
        final List<String> results = new ArrayList<>();
        final SessionWindows windows = SessionWindows.withGap(10);
        final OperatorConfiguration configuration = OperatorConfiguration.builder(windows).allowedLateness(5).dedupe(dedupe).build();
        final WindowAggregator aggregator = configuration.newAggregator(
            r -> results.add(r.windowStart() + "," + r.windowEnd() + "," + r.count()), LateListener.NONE);
        final WindowAssigner assigner = configuration.newAssigner();
        final EventSlot slot = new EventSlot();
        // (id, time): one session [100, 124) of key 0, then wm 114
        final long[][] events = {{1, 100}, {105, 105}, {110, 110}, {114, 114},
            {1, 100},   // 100 + 10 + 5 > 114: under dedupe, caught
            {115, 115}, // wm 115: 100 + 10 + 5 <= 115, id 1 may be forgotten
            {1, 100},   // under dedupe: caught if still remembered, late if forgotten: it changes nothing
            {2, 100}};  // a new id as late: under dedupe it is late too (as a retry of a forgotten id would be)
        long offset = 0;
        for (final long[] e : events)
        {
            slot.event(offset++, e[0], e[1], 0, 1);
            assigner.assign(slot);
            aggregator.apply(slot);
        }
        slot.endOfInput(offset);
        assigner.assign(slot);
        aggregator.apply(slot);

        if (dedupe)
        {
            assertTrue(aggregator.counters().duplicates() >= 1, "the retry while 100 + gap + A > wm is caught");
            assertTrue(aggregator.counters().dropped() >= 1, "an event with 100 + gap + A <= wm is late");
            assertEquals(3, aggregator.counters().duplicates() + aggregator.counters().dropped());
            assertEquals(List.of("100,125,5"), results, "one session of the 5 events counted once, none of them late");
        }
        else
        {
            assertEquals(0, aggregator.counters().dropped(), "without dedupe a late event still merges into the open session");
            assertEquals(List.of("100,125,8"), results);
        }
    }
}
