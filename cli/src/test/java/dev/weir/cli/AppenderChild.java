package dev.weir.cli;

import java.nio.file.Path;

import dev.weir.journal.EventJournal;

/**
 * A child JVM's main for {@link AppendLockTest}: opens a journal for appending through the Java API,
 * appends one event, says so on standard output and keeps the journal open until killed.
 */
final class AppenderChild
{
    private AppenderChild()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        try (EventJournal journal = EventJournal.openOrCreate(Path.of(args[0])))
        {
            journal.append(1, 1_000, "child", 1);
            System.out.println("appending");
            System.out.flush();
            Thread.sleep(600_000);
        }
    }
}
