package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One appender at a time per queue of a journal, in this process too; readers are never refused. (The
 * cross-process and kill -9 cases are in the CLI's AppendLockTest.)
 */
class SingleAppenderTest
{
    @TempDir
    Path dir;

    @Test
    void aSecondAppenderIsRefusedUntilTheFirstClosesWhileReadersAreNot()
    {
        JournalDirectory.create(dir);
        final JournalDirectory directory = IndexedJournals.indexed(dir); // outputs appended at once, as in a journal of single documents
        try (EventJournal first = EventJournal.open(directory))
        {
            first.append(1, 1_000, "a", 1);
            final JournalRefusedException refused = assertThrows(JournalRefusedException.class, () -> EventJournal.open(directory));
            assertTrue(refused.getMessage().contains("its events queue already has an appender (process " + ProcessHandle.current().pid() + ")"),
                refused.getMessage());
            try (JournalReader reader = JournalReader.open(directory); KeyDictionary keys = KeyDictionary.open(directory))
            {
                assertTrue(reader.poll((o, id, t, k, v) -> { }, 10) == 1 && keys.idOf("a") == 0);
            }
        }
        EventJournal.open(directory).close();

        try (OutputJournal writer = OutputJournal.openForAppend(directory); OutputJournal reader = OutputJournal.open(directory))
        {
            assertThrows(JournalRefusedException.class, () -> OutputJournal.openForAppend(directory));
            assertThrows(JournalRefusedException.class, () -> reader.appendLate(OutputJournalTest.lateFields(1, 1, 0, 1, 0)), "appending takes the lock");
        }
        try (OutputJournal lazy = OutputJournal.open(directory))
        {
            lazy.appendLate(OutputJournalTest.lateFields(1, 1, 0, 1, 0));
            assertThrows(JournalRefusedException.class, () -> OutputJournal.openForAppend(directory));
        }
        OutputJournal.openForAppend(directory).close();
    }
}
