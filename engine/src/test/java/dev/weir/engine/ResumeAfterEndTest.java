package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.weir.engine.resume.ResumeAfterEndException;
import dev.weir.engine.time.LatePolicy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Pipeline#runToEnd()} ends with the watermark at +infinity: a later run of the same pipeline that resumes
 * from that checkpoint would find every event after it late. Through the Java API such a run is refused with
 * {@link ResumeAfterEndException} before it processes anything (a following run always, a bounded run when the
 * journal holds events after the checkpoint), unless {@link PipelineBuilder#resumeAfterEnd(boolean)} accepts it; a
 * bounded rerun with nothing new is not refused.
 */
class ResumeAfterEndTest
{
    private static final long TIMEOUT_S = 120;

    @TempDir
    Path dir;

    @Test
    void aRunAfterABoundedRunIsRefusedBeforeItProcessesAnythingUnlessAccepted() throws Exception
    {
        final Path journal = dir.resolve("journal");
        append(journal, 0, 1_000);
        final AtomicLong late = new AtomicLong();
        assertEquals(1_000, builder(journal, late).build().runToEnd().eventsThisRun());
        assertEquals(0, builder(journal, late).build().runToEnd().eventsThisRun(), "a rerun with nothing new is not refused");

        final ResumeAfterEndException now = refused(builder(journal, late).build(), true);
        assertTrue(now.getMessage().contains("every event appended from now on would be late"), now.getMessage());

        final long last = append(journal, 1_000, 3_000);
        final ResumeAfterEndException following = refused(builder(journal, late).build(), true);
        assertTrue(following.getMessage().startsWith("pipeline default resumes from checkpoint #")
            && following.getMessage().contains("the 2,000 events after it would all be late")
            && following.getMessage().contains("resumeAfterEnd(true)"), following.getMessage());
        refused(builder(journal, late).build(), false);
        assertEquals(0, late.get(), "nothing was processed");

        try (Pipeline accepted = builder(journal, late).resumeAfterEnd(true).build().start())
        {
            assertTrue(accepted.awaitOffset(last, TIMEOUT_S, TimeUnit.SECONDS), "the accepted run follows the journal");
            assertEquals(2_000, accepted.stop().eventsThisRun());
        }
        assertEquals(2_000, late.get(), "accepted: every new event is late, as asked");
    }

    @Test
    void aCheckAfterAnAppendSaysTheAppendedEventsStayInTheJournal()
    {
        final Path journal = dir.resolve("journal");
        append(journal, 0, 100);
        final AtomicLong late = new AtomicLong();
        builder(journal, late).build().runToEnd();
        final PipelineConfiguration configuration = builder(journal, late).conclude();
        final Recovery recovery = configuration.recover();
        configuration.checkResume(recovery, false, 0); // nothing after the checkpoint yet: a bounded rerun
        append(journal, 100, 1_300);

        final ResumeAfterEndException refused = assertThrows(ResumeAfterEndException.class, () -> configuration.checkResume(recovery, false, 1_200));
        assertTrue(refused.getMessage().contains("the 1,200 events after it would all be late")
            && refused.getMessage().endsWith("; the 1,200 events this run ingested stay in the journal"), refused.getMessage());
        final ResumeAfterEndException unsaid = assertThrows(ResumeAfterEndException.class, () -> configuration.checkResume(recovery, false, 0));
        assertFalse(unsaid.getMessage().contains("ingested"), unsaid.getMessage());
        builder(journal, late).resumeAfterEnd(true).conclude().checkResume(recovery, false, 1_200); // accepted
    }

    /** Start the pipeline (following or bounded): it must be refused, and process nothing. */
    private static ResumeAfterEndException refused(final Pipeline pipeline, final boolean follow)
    {
        try (pipeline)
        {
            final ResumeAfterEndException refused = assertThrows(ResumeAfterEndException.class, follow ? pipeline::start : pipeline::runToEnd);
            assertEquals(0, pipeline.processedEvents());
            return refused;
        }
    }

    private static PipelineBuilder builder(final Path journal, final AtomicLong late)
    {
        return Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).outOfOrderness(100).latePolicy(LatePolicy.SIDE)
            .onLate(e -> late.incrementAndGet());
    }

    /** Events {@code from} to {@code to} (exclusive) of key k, value 1, one per ms; returns the last one's offset. */
    private static long append(final Path journal, final int from, final int to)
    {
        long offset = -1;
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = from; i < to; i++)
            {
                offset = writer.append(i, i, "k", 1);
            }
        }
        return offset;
    }
}
