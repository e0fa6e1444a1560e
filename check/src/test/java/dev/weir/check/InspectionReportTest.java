package dev.weir.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link InspectionReport} writes a described journal as {@code weir inspect} prints it: the journal's lines, a line per
 * named pipeline, each pipeline's outputs and checkpoint under its own heading, the disk and the retention lines.
 */
class InspectionReportTest
{
    private static final int EVENTS = 300;
    private static final String N = System.lineSeparator();

    @TempDir
    Path dir;

    @Test
    void aJournalWithTwoPipelinesIsWrittenWithEachPipelinesOutputsAndCheckpoint()
    {
        final Path root = dir.resolve("j");
        try (EventJournal writer = EventJournal.openOrCreate(root))
        {
            for (int i = 0; i < EVENTS; i++)
            {
                writer.append(i, 1_000L * i, "k" + i % 5, i);
            }
            writer.appendRejected(EVENTS + 2, "bad value", "x,y,z,w");
        }
        Weir.pipeline().journal(root).pipeline("spend").window(TumblingWindows.of(10_000)).build().runToEnd();
        Weir.pipeline().journal(root).pipeline("bursts").window(TumblingWindows.of(1_000)).build().runToEnd();
        final JournalInspection inspection = JournalInspection.of(root);

        final StringBuilder written = new StringBuilder();
        InspectionReport.write(inspection, written);
        final String text = written.toString();
        final List<String> lines = List.of(text.split(N));

        assertTrue(text.endsWith(N), "every line ends with the line separator");
        assertEquals("journal      " + root + " (format version " + JournalDirectory.FORMAT_VERSION_BATCHED + ")", lines.get(0));
        assertEquals("columns      " + inspection.schema(), lines.get(1));
        assertEquals("events       300 events, 1 rejected lines, 0 ingests, 5 keys", lines.get(3));
        final long last = inspection.counts().lastEventOffset();
        assertEquals("offsets      first event " + inspection.counts().firstEventOffset() + ", last event " + last + " (documents "
            + inspection.counts().firstOffset() + ".." + inspection.counts().lastOffset() + ")", lines.get(4));
        assertEquals("pipelines    bursts, spend", lines.get(6));
        assertTrue(lines.get(7).startsWith("  bursts     checkpoint at offset " + last + ", lag 0 events; "), lines.get(7));
        assertTrue(lines.get(8).startsWith("  spend      checkpoint at offset " + last + ", lag 0 events; "), lines.get(8));
        assertEquals("--- pipeline bursts ---", lines.get(9));
        final long burstsEnd = inspection.pipelines().get(0).lastOutputPosition();
        assertEquals("output       300 results, 0 late events; last output position " + burstsEnd, lines.get(10));
        assertTrue(lines.get(11).startsWith("checkpoint   #"), lines.get(11));
        assertTrue(lines.get(11).contains(" at offset " + last + " (300 events applied, input finished), output position " + burstsEnd + ", written "),
            lines.get(11));
        assertTrue(lines.contains("--- pipeline spend ---"), text);
        assertTrue(lines.contains("output       150 results, 0 late events; last output position " + inspection.pipelines().get(1).lastOutputPosition()), text);
        assertTrue(lines.contains("state        watermark +infinity, 0 open windows, 0 ids remembered for dedupe"), text);
        assertTrue(lines.stream().anyMatch(line -> line.startsWith("disk         results of spend: ")), text);
        assertEquals("retention    nothing removed", lines.get(lines.size() - 2));
        assertTrue(lines.get(lines.size() - 1).startsWith("floor        events from "), lines.get(lines.size() - 1));
    }
}
