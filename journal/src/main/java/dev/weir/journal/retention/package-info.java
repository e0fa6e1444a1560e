/**
 * Removing whole roll cycles from the start of a journal, and what that leaves behind:
 * {@link dev.weir.journal.retention.CycleRemoval} deletes a cycle or moves it into an archive;
 * {@link dev.weir.journal.retention.OutputHistory} records what was removed from a pipeline's output journal;
 * {@link dev.weir.journal.retention.ArchiveView} reads a journal back whole from its archive;
 * {@link dev.weir.journal.retention.HeldRemovedCycles} finds removed cycle files a process still holds open. What
 * may be removed is decided by the engine's retention floor, not here. The events' history base
 * ({@code HistoryBase}) stays with the journal itself: opening and reading a journal need it.
 * <p>
 * Threading: the static methods are thread-safe; one retention step at a time per journal
 * ({@code RetentionLock}).
 * <p>
 * Depends on {@code dev.weir.journal} and the packages below it; nothing in the journal depends on it.
 */
package dev.weir.journal.retention;
