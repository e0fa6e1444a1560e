package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import dev.weir.journal.JournalCycles;
import dev.weir.journal.JournalDirectory;
import dev.weir.testsupport.KillHarness;
import dev.weir.testsupport.KillRounds;
import dev.weir.testsupport.OutputJournalContents;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exactly-once of a bounded {@code weir run} whose journal writes its outputs several to a document (marker version 5),
 * proven by killing ({@link KillRounds#batched()}): at least {@code -Dweir.kill.count.batched} kills per case (12 by
 * default), a third of them aimed at the writing of outputs (after 1 to 300 output documents), the others spread as for
 * every kill test. Each round's output journal, output by output, and its exported files, byte for byte, must equal an
 * uninterrupted run's over a journal of single documents: a kill loses the outputs held for the next document, recovery
 * resumes from checkpoints whose output position may lie inside a batched document, and replay batches differently.
 */
@Tag("slow")
class BatchedKillRecoveryTest
{
    private static final int KILLS = KillRounds.count("weir.kill.count.batched", 12);
    private static final int EVENTS = 40_000;

    @org.junit.jupiter.api.io.TempDir
    Path dir;

    static Stream<OptionKillRecoveryTest.Case> cases()
    {
        return OptionKillRecoveryTest.cases().filter(c -> c.name().equals("--emit updates --early-when") || c.name().equals("--sync")
            || c.name().equals("--output-dir"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void killedWhileWritingBatchedOutputsTheRunStillWritesEveryOutputExactlyOnce(final OptionKillRecoveryTest.Case c) throws Exception
    {
        final Path input = dir.resolve("events.csv");
        final long lines = KillHarness.writeEvents(input, EVENTS, c.keys(), c.name().hashCode(), c.stepMs(), c.duplicates());

        final Path reference = new KillRounds(c.name() + " (batched outputs)", dir, KILLS, lines, c.name().hashCode() * 37L).batched()
            .run(out -> OptionKillRecoveryTest.args(input, out, c.flags()));

        assertTrue(OutputJournalContents.outputs(reference.resolve("journal")).size() > 1_000, "the reference wrote outputs");
        final Path round = dir.resolve("round-0").resolve("journal");
        assertTrue(JournalDirectory.open(round).offsets().batched(), "the rounds write batched documents");
        final List<String> outputs = OutputJournalContents.outputs(round);
        long documents = 0;
        for (final JournalCycles.Cycle cycle : JournalCycles.results(JournalDirectory.open(round)).cycles())
        {
            documents += cycle.documents();
        }
        assertTrue(documents * 4 < outputs.size(), outputs.size() + " outputs in " + documents + " documents");
    }
}
