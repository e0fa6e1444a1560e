package dev.weir.engine.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.fired.FiredResult;
import dev.weir.engine.fired.SkippedEvent;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The exactly-once sink on a real output journal: a fresh run appends every output and hands it to the
 * listeners; a replay from a checkpoint's output position verifies and suppresses the outputs already
 * stored after it (the listeners are not called again), then appends the rest; a reproduced output that
 * differs from the stored one stops the run with {@link DeterminismException} and writes nothing.
 */
class OutputJournalSinkTest
{
    @TempDir
    Path dir;

    private final List<String> delivered = new ArrayList<>();
    private final ResultListener results = r -> delivered.add(r.toString());
    private final LateListener late = e -> delivered.add("late " + e.eventId());

    private static FiredResult result(final int i)
    {
        return new FiredResult().window(i * 10L, i * 10L + 10).keyId(i % 3).count(i + 1).sum(7L * i).min(-i).max(i).version(i % 2)
            .sourceOffset(100L + i);
    }

    private static SkippedEvent lateEvent(final int i)
    {
        return new SkippedEvent().set(1_000 + i, 5L * i, i % 3, 9L * i, 100L + i);
    }

    /** Outputs 0..n-1: a late event every fourth, results otherwise. */
    private static void emit(final OutputJournalSink sink, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            if (i % 4 == 3)
            {
                sink.onLate(new LateEvent(lateEvent(i)));
            }
            else
            {
                sink.onResult(new WindowResult(result(i)));
            }
        }
    }

    private OutputJournalSink sink(final long resumeAfter, final boolean withAggregate)
    {
        return new OutputJournalSink(OutputJournal.open(JournalDirectory.openOrCreate(dir)), resumeAfter, results, late, withAggregate);
    }

    /** Run a first time: 10 outputs, remembering the position after the 4th (index 3) as a checkpoint would. */
    private long firstRun(final boolean withAggregate)
    {
        final OutputJournalSink sink = sink(OutputJournal.NONE, withAggregate);
        emit(sink, 0, 4);
        final long checkpoint = sink.position();
        emit(sink, 4, 10);
        assertEquals(10, sink.appended());
        assertEquals(0, sink.suppressed());
        sink.close();
        return checkpoint;
    }

    private long stored()
    {
        try (OutputJournal output = OutputJournal.open(JournalDirectory.open(dir)))
        {
            return output.readAll(stored -> { });
        }
    }

    @Test
    void aFreshRunAppendsEveryOutputAndDeliversIt()
    {
        firstRun(false);
        assertEquals(10, delivered.size());
        assertEquals(new WindowResult(result(0)).toString(), delivered.get(0));
        assertEquals("late 1003", delivered.get(3));
        assertEquals(10, stored());
    }

    @Test
    void aReplayVerifiesAndSuppressesWhatIsStoredThenAppendsTheRest()
    {
        final long checkpoint = firstRun(false);
        delivered.clear();
        final OutputJournalSink replay = sink(checkpoint, false);
        emit(replay, 4, 10);
        assertEquals(6, replay.suppressed(), "outputs 4..9 were already stored");
        assertEquals(0, replay.appended());
        assertEquals(List.of(), delivered, "suppressed outputs are not delivered again");
        final long lastStored = replay.position();
        emit(replay, 10, 13);
        assertEquals(3, replay.appended());
        assertTrue(replay.position() > lastStored);
        assertEquals(List.of(new WindowResult(result(10)).toString(), "late 1011", new WindowResult(result(12)).toString()), delivered);
        replay.close();
        assertEquals(13, stored(), "nothing was written twice");
    }

    @Test
    void aReplayFromTheBeginningVerifiesEverything()
    {
        firstRun(true);
        delivered.clear();
        final OutputJournalSink replay = sink(OutputJournal.NONE, true);
        emit(replay, 0, 10);
        assertEquals(10, replay.suppressed());
        assertEquals(List.of(), delivered);
        replay.close();
    }

    /** An event's outputs: results of one start for keys 0..n-1 (all from offset 500), then a late event. */
    private static void emitEvent(final OutputJournalSink sink, final int... keys)
    {
        for (final int key : keys)
        {
            sink.onResult(new WindowResult(new FiredResult().window(0, 10).keyId(key).count(key + 1).sum(key).min(key).max(key).version(0).sourceOffset(500)));
        }
        sink.onLate(new LateEvent(new SkippedEvent().set(77, 1, 0, 5, 500)));
    }

    @Test
    void rebuildingAStateAnOlderWeirWroteVerifiesEachEventsOutputsInAnyOrderThenAppendsInTheOrderReproduced()
    {
        final OutputJournalSink older = sink(OutputJournal.NONE, false);
        emitEvent(older, 2, 0, 1); // the older Weir's order
        older.close();
        delivered.clear();

        final OutputJournalSink rebuild = sink(OutputJournal.NONE, false);
        rebuild.verifyEachEventInAnyOrder();
        emitEvent(rebuild, 0, 1, 2);
        emit(rebuild, 10, 13); // later events: past the last stored output
        assertEquals(4, rebuild.suppressed(), "the first event's four outputs were stored, in another order");
        assertEquals(3, rebuild.appended());
        assertEquals(List.of(new WindowResult(result(10)).toString(), "late 1011", new WindowResult(result(12)).toString()), delivered);
        rebuild.close();
        assertEquals(7, stored(), "nothing was written twice");
    }

    @Test
    void rebuildingAStateAnOlderWeirWroteStillStopsOnAnOutputNotReproduced()
    {
        final OutputJournalSink older = sink(OutputJournal.NONE, false);
        emitEvent(older, 2, 0, 1);
        older.close();

        final OutputJournalSink rebuild = sink(OutputJournal.NONE, false);
        rebuild.verifyEachEventInAnyOrder();
        emitEvent(rebuild, 0, 1, 3);
        final DeterminismException ex = assertThrows(DeterminismException.class, rebuild::position);
        assertTrue(ex.getMessage().contains("source offset 500"), ex.getMessage());
        rebuild.close();
        assertEquals(4, stored(), "nothing was written");
    }

    @Test
    void aReproducedResultThatDiffersStopsTheRunAndWritesNothing()
    {
        final long checkpoint = firstRun(false);
        delivered.clear();
        final OutputJournalSink replay = sink(checkpoint, false);
        emit(replay, 4, 6);
        final FiredResult different = result(6);
        different.sum(different.sum() + 1);
        final DeterminismException thrown = assertThrows(DeterminismException.class, () -> replay.onResult(new WindowResult(different)));
        assertTrue(thrown.getMessage().contains("replay reproduced result"), thrown.getMessage());
        assertEquals(List.of(), delivered);
        replay.close();
        assertEquals(10, stored());
    }

    /** @param field the one field that differs: event id, event time, key id, value or offset. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4})
    void aReproducedLateEventThatDiffersInAnyFieldStopsTheRun(final int field)
    {
        final long checkpoint = firstRun(false);
        final OutputJournalSink replay = sink(checkpoint, false);
        emit(replay, 4, 7);
        final SkippedEvent e = lateEvent(7);
        final SkippedEvent different = new SkippedEvent().set(
            e.eventId() + (field == 0 ? 1 : 0),
            e.eventTime() + (field == 1 ? 1 : 0),
            e.keyId() + (field == 2 ? 1 : 0),
            e.value() + (field == 3 ? 1 : 0),
            e.offset() + (field == 4 ? 1 : 0));
        assertThrows(DeterminismException.class, () -> replay.onLate(new LateEvent(different)));
        replay.close();
    }

    @Test
    void aResultWhereALateEventIsStoredStopsTheRun()
    {
        final long checkpoint = firstRun(false);
        final OutputJournalSink replay = sink(checkpoint, false);
        emit(replay, 4, 7);
        assertThrows(DeterminismException.class, () -> replay.onResult(new WindowResult(result(7))), "output 7 is stored as a late event");
        replay.close();
    }

    @Test
    void aDifferentUserAggregateStopsTheRun()
    {
        final long checkpoint = firstRun(true);
        final OutputJournalSink replay = sink(checkpoint, true);
        emit(replay, 4, 5);
        assertThrows(DeterminismException.class, () -> replay.onResult(new WindowResult(result(5).withAggregate(1))));
        replay.close();
    }
}
