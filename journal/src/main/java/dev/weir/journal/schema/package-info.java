/**
 * What an event is, below the codecs: its columns ({@link dev.weir.journal.schema.JournalSchema},
 * {@link dev.weir.journal.schema.ColumnType}), the rules of their values ({@link dev.weir.journal.schema.FieldParser},
 * {@link dev.weir.journal.schema.StringFormat}, {@link dev.weir.journal.schema.KeyFormat}), and the view of one stored
 * event that a reader hands over ({@link dev.weir.journal.schema.EventView}). Also the refusal of what a newer Weir
 * wrote ({@link dev.weir.journal.schema.NewerFormatException}) and its base
 * {@link dev.weir.journal.schema.WeirException}, the base of every exception Weir's API throws: they are here, at the
 * bottom, because the codecs throw the first.
 * <p>
 * Threading: schemas and the value rules are immutable and thread-safe; an event view belongs to its reading thread.
 * <p>
 * Depends on no other Weir package; {@code codec} and the journal itself are built on it.
 */
package dev.weir.journal.schema;
