package dev.weir.engine.retention;

import java.nio.file.Path;

import dev.weir.journal.JournalCycles;

/**
 * One roll cycle a retention step removed (or, in a dry run, would remove).
 *
 * @param queue    what it was part of: {@code events}, or {@code results of pipeline NAME}.
 * @param cycle    the cycle, as listed before its removal.
 * @param archived where it was moved, or null if it was deleted (or in a dry run).
 */
public record RemovedCycle(String queue, JournalCycles.Cycle cycle, Path archived)
{
}
