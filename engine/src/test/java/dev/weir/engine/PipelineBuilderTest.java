package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import com.lmax.disruptor.BusySpinWaitStrategy;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the builder refuses, and the threads each layout runs.
 */
class PipelineBuilderTest
{
    @TempDir
    Path dir;

    @Test
    void theInlineLayoutRefusesAConsumerWaitStrategy() throws IOException
    {
        final Path journal = journal();
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> Weir.pipeline().journal(journal)
            .window(TumblingWindows.of(1_000)).layout(PipelineLayout.INLINE).waitStrategy(BusySpinWaitStrategy::new).build());
        assertTrue(ex.getMessage().contains("publisherIdle"), ex.getMessage());
    }

    @Test
    void aFollowingPipelineRunsInlineByDefaultAndFusedWithAWaitStrategy() throws Exception
    {
        final Path journal = journal();
        try (Pipeline inline = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).build().start())
        {
            assertTrue(inline.awaitOffset(lastOffset(journal), 120, TimeUnit.SECONDS));
            assertEquals(0, threads("-publisher"), "inline: no publisher thread");
            assertEquals(1, threads("-stage-"));
        }
        try (Pipeline fused = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000))
            .waitStrategy(BusySpinWaitStrategy::new).build().start())
        {
            assertEquals(1, threads("-publisher"), "a wait strategy needs a consumer that waits: fused");
        }
        assertEquals(0, threads("-stage-"), "stopping a pipeline ends its threads");
    }

    private Path journal() throws IOException
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal writer = EventJournal.openOrCreate(journal))
        {
            for (int i = 0; i < 100; i++)
            {
                writer.append(i, i * 10L, "k" + (i % 7), i);
            }
        }
        return journal;
    }

    private static long lastOffset(final Path journal)
    {
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal)))
        {
            return reader.lastOffset();
        }
    }

    /** @return live threads of the default pipeline, {@code weir-default-<run>-stage-<i>} or {@code -publisher}. */
    private static long threads(final String role)
    {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.isAlive() && t.getName().startsWith("weir-default-") && t.getName().contains(role)).count();
    }
}
