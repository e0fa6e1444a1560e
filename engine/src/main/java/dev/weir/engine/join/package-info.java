/**
 * The as-of join of events with the journal's reference tables: {@link dev.weir.engine.join.TableJoins} holds, on
 * the publisher's thread, each joined table's rows as read from the journal ({@link dev.weir.engine.join.TableVersions},
 * keys and texts in primitive maps) and joins each event with the row of its key valid at the event's time among the
 * rows appended before it ({@link dev.weir.engine.join.AsOfJoin}); {@link dev.weir.engine.join.JoinedView} shows the
 * event and its joined rows to filters, values and the key as one {@link dev.weir.journal.schema.EventView}. Versions
 * older than the {@link dev.weir.engine.join.Horizon} are dropped, so a table updated forever stays bounded.
 * {@link dev.weir.engine.join.JoinMissing} says what becomes of an event with no row.
 * <p>
 * Threading: the join state belongs to the publisher's thread; nothing here allocates per event. Public API:
 * {@link dev.weir.engine.join.JoinMissing} and {@link dev.weir.engine.join.JoinedColumns}.
 * <p>
 * Depends on {@code dev.weir.engine.expr} and {@code dev.weir.journal}.
 */
package dev.weir.engine.join;
