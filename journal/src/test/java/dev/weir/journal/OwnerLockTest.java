package dev.weir.journal;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One owner at a time of a directory, in this process too; released on close. (The cross-process case is the CLI's
 * KafkaInstanceRefusedTest.)
 */
final class OwnerLockTest
{
    @TempDir
    Path dir;

    @Test
    void aSecondOwnerIsRefusedUntilTheFirstCloses()
    {
        final Path owned = dir.resolve("kafka");
        try (OwnerLock first = OwnerLock.acquire(owned, "use another directory"))
        {
            final JournalRefusedException refused = assertThrows(JournalRefusedException.class, () -> OwnerLock.acquire(owned, "use another directory"));
            assertTrue(refused.getMessage().contains("(" + ProcessHandle.current().pid() + ")") && refused.getMessage().endsWith("use another directory"),
                refused::getMessage);
        }
        OwnerLock.acquire(owned, "use another directory").close();
    }
}
