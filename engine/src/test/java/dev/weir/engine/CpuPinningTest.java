package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import net.openhft.affinity.AffinityLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pinned threads run on their CPU only, as the kernel reports it ({@code Cpus_allowed_list} of the thread);
 * a CPU the machine does not have is refused when the pipeline is built.
 */
class CpuPinningTest
{
    /** The last CPU: never the only one the test's own thread may use, so pinning shows. */
    private static final int CPU = AffinityLock.PROCESSORS - 1;

    @TempDir
    Path dir;

    @Test
    void theStageAndPublisherThreadsRunOnlyOnTheirCpus() throws Exception
    {
        final AtomicReference<String> stage = new AtomicReference<>();
        final AtomicReference<String> publisher = new AtomicReference<>();
        try (Pipeline pipeline = Weir.pipeline().journal(journal()).window(TumblingWindows.of(1_000)).layout(PipelineLayout.FUSED)
            .pinStages(CPU).pinPublisher(0)
            .onApplied(offset -> stage.compareAndSet(null, cpusAllowed()))
            .where(event -> publisher.compareAndSet(null, cpusAllowed()) || true, "true") // runs on the publisher's thread
            .build()
            .start())
        {
            assertTrue(pipeline.awaitOffset(0, 120, TimeUnit.SECONDS));
            assertEquals(String.valueOf(CPU), stage.get(), "the stage thread's CPUs");
            assertEquals("0", publisher.get(), "the publisher thread's CPUs");
        }
        assertTrue(!cpusAllowed().equals(String.valueOf(CPU)) || AffinityLock.PROCESSORS == 1, "the test's thread is not pinned: " + cpusAllowed());
    }

    @Test
    void aCpuTheMachineDoesNotHaveIsRefusedAtBuild()
    {
        final CpuPinningException ex = assertThrows(CpuPinningException.class,
            () -> Weir.pipeline().journal(journal()).window(TumblingWindows.of(1_000)).pinStages(AffinityLock.PROCESSORS).build());
        assertTrue(ex.getMessage().contains("CPU " + AffinityLock.PROCESSORS), ex.getMessage());
    }

    /** @return the calling thread's {@code Cpus_allowed_list}, from the kernel. */
    static String cpusAllowed()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/thread-self/status")))
            {
                if (line.startsWith("Cpus_allowed_list:"))
                {
                    return line.substring("Cpus_allowed_list:".length()).trim();
                }
            }
            return "?";
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private Path journal()
    {
        final Path journal = dir.resolve("journal");
        if (!Files.exists(journal))
        {
            try (EventJournal events = EventJournal.openOrCreate(journal))
            {
                events.append(1, 0, "k", 1);
            }
        }
        return journal;
    }
}
