package dev.weir.engine.model;

/**
 * One document of a journal with tables, as the as-of join model sees it: a table row ({@link ModelTableRow})
 * or an event or heartbeat ({@link JoinEvent}). A list of them is the journal, in journal (append) order.
 * Test-only; shares no code with the engine.
 */
public sealed interface JournalEntry permits ModelTableRow, JoinEvent
{
}
