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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OutputJournalSink} on a real output journal: a replay that reproduces the stored outputs is
 * suppressed field by field through the output codec, and any field that differs (or an output of the
 * other kind, or a missing or extra aggregate) stops it with {@link DeterminismException}.
 */
class ReplayVerificationTest
{
    @TempDir
    Path dir;

    private JournalDirectory journal;
    private final List<String> delivered = new ArrayList<>();

    @BeforeEach
    void storeOneResultAndOneLateEvent()
    {
        journal = JournalDirectory.create(dir.resolve("journal"));
        final OutputJournalSink first = sink(true);
        first.onResult(new WindowResult(result()));
        first.onLate(new LateEvent(late()));
        first.close();
        assertEquals(List.of("R 2", "L 7"), delivered);
        delivered.clear();
    }

    @Test
    void aFaithfulReplayIsSuppressedThenAppends()
    {
        final OutputJournalSink replay = sink(true);
        replay.onResult(new WindowResult(result()));
        replay.onLate(new LateEvent(late()));
        replay.onResult(new WindowResult(result().version(3)));
        replay.close();
        assertEquals(2, replay.suppressed());
        assertEquals(1, replay.appended());
        assertEquals(List.of("R 3"), delivered, "only the new output reaches the listeners");
    }

    @Test
    void everyResultFieldIsVerified()
    {
        assertDiverges(r -> r.window(0, 10_001));
        assertDiverges(r -> r.window(1, 10_000));
        assertDiverges(r -> r.keyId(5));
        assertDiverges(r -> r.count(4));
        assertDiverges(r -> r.sum(-1));
        assertDiverges(r -> r.min(0));
        assertDiverges(r -> r.max(10));
        assertDiverges(r -> r.version(1));
        assertDiverges(r -> r.sourceOffset(43));
        assertDiverges(r -> r.withAggregate(8));
    }

    @Test
    void theAggregateMustBeStoredAsConfigured()
    {
        final OutputJournalSink replay = sink(false);
        assertThrows(DeterminismException.class, () -> replay.onResult(new WindowResult(result())), "stored with an aggregate, replayed without");
        replay.close();
    }

    @Test
    void everyLateEventFieldIsVerified()
    {
        for (final SkippedEvent changed : List.of(
            new SkippedEvent().set(8, 500, 4, -3, 99), new SkippedEvent().set(7, 501, 4, -3, 99), new SkippedEvent().set(7, 500, 5, -3, 99),
            new SkippedEvent().set(7, 500, 4, -2, 99), new SkippedEvent().set(7, 500, 4, -3, 98)))
        {
            final OutputJournalSink replay = sink(true);
            replay.onResult(new WindowResult(result()));
            assertThrows(DeterminismException.class, () -> replay.onLate(new LateEvent(changed)));
            replay.close();
        }
    }

    @Test
    void anOutputOfTheOtherKindDiverges()
    {
        final OutputJournalSink replay = sink(true);
        final DeterminismException ex = assertThrows(DeterminismException.class, () -> replay.onLate(new LateEvent(late())));
        assertTrue(ex.getMessage().contains("result 0,10000,#4,3,9,1,5,2 (source offset 42) aggregate 7"), ex.getMessage());
        replay.close();
    }

    private void assertDiverges(final java.util.function.UnaryOperator<FiredResult> change)
    {
        final OutputJournalSink replay = sink(true);
        assertThrows(DeterminismException.class, () -> replay.onResult(new WindowResult(change.apply(result()))));
        replay.close();
        assertTrue(delivered.isEmpty(), "a diverging output reaches no listener");
    }

    private OutputJournalSink sink(final boolean withAggregate)
    {
        return new OutputJournalSink(OutputJournal.openForAppend(journal), OutputJournal.NONE, r -> delivered.add("R " + r.version()),
            e -> delivered.add("L " + e.eventId()), withAggregate);
    }

    private static FiredResult result()
    {
        return new FiredResult().window(0, 10_000).keyId(4).count(3).sum(9).min(1).max(5).version(2).sourceOffset(42).withAggregate(7);
    }

    private static SkippedEvent late()
    {
        return new SkippedEvent().set(7, 500, 4, -3, 99);
    }
}
