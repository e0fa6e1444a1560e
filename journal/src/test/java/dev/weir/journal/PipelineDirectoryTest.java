package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.schema.JournalSchema;

/**
 * Named pipelines on one journal: the default is the journal's own layout, a named one's files are under
 * {@code pipelines/NAME/}, each has its own output journal, results lock and id, and all share the events.
 */
class PipelineDirectoryTest
{
    @TempDir
    Path dir;

    @Test
    void theDefaultPipelineIsTheJournalItselfAndANamedOneLivesUnderPipelines()
    {
        final JournalDirectory journal = JournalDirectory.create(dir.resolve("j"), JournalSchema.parse("card:string,amount:long"));
        final JournalDirectory base = journal.pipeline("default");
        assertSame(journal, base);
        assertEquals("default", base.pipelineName());
        assertEquals(journal.root(), base.pipelineRoot());
        assertEquals(journal.root().resolve("results"), base.resultsQueue());
        assertEquals(journal.root().resolve("checkpoints"), base.checkpoints());
        assertEquals(journal.root().resolve("metrics.dat"), base.metricsFile());

        final JournalDirectory spend = journal.pipeline("spend-1");
        final Path home = journal.root().resolve("pipelines").resolve("spend-1");
        assertEquals("spend-1", spend.pipelineName());
        assertEquals(journal.root(), spend.root());
        assertEquals(journal.eventsQueue(), spend.eventsQueue());
        assertEquals(journal.schema(), spend.schema());
        assertEquals(home, spend.pipelineRoot());
        assertEquals(home.resolve("results"), spend.resultsQueue());
        assertEquals(home.resolve("checkpoints"), spend.checkpoints());
        assertEquals(home.resolve("metrics.dat"), spend.metricsFile());
        assertEquals(journal.id() + "/pipelines/spend-1", spend.id());
        assertEquals(journal.id(), spend.pipeline("default").id());
        assertEquals(spend.resultsQueue(), journal.pipeline("other").pipeline("spend-1").resultsQueue(), "a view of a view is of the journal");
        assertFalse(Files.exists(home), "a view creates nothing");
        assertEquals(List.of(), journal.pipelines(), "nothing has run");
    }

    @Test
    void aPipelineNameFollowsTheRule()
    {
        final JournalDirectory journal = JournalDirectory.create(dir.resolve("j"));
        for (final String bad : new String[] {"", "Upper", "-lead", "_lead", "a/b", "..", "a.b", "a b", "x".repeat(65)})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> journal.pipeline(bad), bad);
            assertTrue(ex.getMessage().contains(JournalDirectory.PIPELINE_NAME_RULE), ex.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> journal.pipeline(null));
        for (final String good : new String[] {"a", "0", "spend_per-card", "x".repeat(64)})
        {
            assertEquals(good, journal.pipeline(good).pipelineName());
        }
    }

    @Test
    void eachPipelineHasItsOwnOutputJournalAndResultsLockWhileTheEventsAreShared() throws IOException
    {
        final JournalDirectory journal = JournalDirectory.create(dir.resolve("j"));
        final JournalDirectory a = journal.pipeline("a");
        final JournalDirectory b = journal.pipeline("b");
        try (EventJournal events = EventJournal.open(a))
        {
            events.append(1, 1_000, "k", 5);
            assertThrows(JournalRefusedException.class, () -> EventJournal.open(b), "one events appender, whichever view opens it");
            assertTrue(Files.exists(journal.root().resolve("events.lock")));
        }
        try (OutputJournal outA = OutputJournal.openForAppend(a);
             OutputJournal outB = OutputJournal.openForAppend(b);
             OutputJournal outDefault = OutputJournal.openForAppend(journal))
        {
            final JournalRefusedException refused = assertThrows(JournalRefusedException.class, () -> OutputJournal.openForAppend(journal.pipeline("a")));
            assertTrue(refused.getMessage().contains("results queue of pipeline a already has an appender"), refused.getMessage());
            assertThrows(JournalRefusedException.class, () -> OutputJournal.openForAppend(journal));
            assertTrue(Files.exists(a.pipelineRoot().resolve("results.lock")));
            assertTrue(Files.exists(b.pipelineRoot().resolve("results.lock")));
            outA.appendLate(OutputJournalTest.lateFields(1, 1_000, 0, 5, 10));
            outA.appendLate(OutputJournalTest.lateFields(2, 1_000, 0, 5, 11));
            outB.appendLate(OutputJournalTest.lateFields(3, 1_000, 0, 5, 12));
        }
        assertEquals(List.of(1L, 2L), lateIds(a));
        assertEquals(List.of(3L), lateIds(b));
        assertEquals(List.of(), lateIds(journal), "the default's output journal is untouched");
        try (JournalReader reader = JournalReader.open(b))
        {
            assertEquals(1, reader.poll((o, id, t, k, v) -> { }, 10), "every pipeline reads the one events queue");
        }
        assertEquals(List.of("a", "b"), journal.pipelines(), "the default has no output or checkpoint");

        Files.createDirectories(journal.checkpoints());
        Files.write(journal.checkpoints().resolve("checkpoint-1.bin"), new byte[] {1});
        Files.createDirectories(journal.root().resolve("pipelines").resolve("Not-A-Name"));
        Files.createDirectories(journal.root().resolve("pipelines").resolve("0first"));
        assertEquals(List.of("default", "0first", "a", "b"), journal.pipelines());
    }

    @Test
    void theDefaultPipelineIsListedWhenItHasOutputs()
    {
        final JournalDirectory journal = JournalDirectory.create(dir.resolve("j"));
        try (OutputJournal out = OutputJournal.openForAppend(journal))
        {
            out.appendLate(OutputJournalTest.lateFields(1, 1_000, 0, 5, 10));
        }
        assertEquals(List.of("default"), journal.pipeline("z").pipelines());
        assertTrue(Files.exists(journal.root().resolve("results.lock")), "the default's results lock stays at the root");
        assertFalse(Files.exists(journal.root().resolve("pipelines")));
    }

    private static List<Long> lateIds(final JournalDirectory directory)
    {
        final List<Long> ids = new ArrayList<>();
        try (OutputJournal out = OutputJournal.open(directory))
        {
            out.readAll(o -> ids.add(o.late().eventId()));
        }
        return ids;
    }
}
