package dev.weir.journal.schema;

/**
 * The type of a journal column: how its values are parsed from text, stored in an event's fixed part,
 * and printed.
 * <p>
 * Immutable and thread-safe.
 */
public enum ColumnType
{
    /** UTF-8 text, interned per column as a dense int id; the id is stored (4 bytes). */
    STRING,
    /** A signed 64-bit integer (8 bytes). */
    LONG,
    /** Fixed point with a column-wide scale: {@code 12.34} at scale 2 is stored as the long 1234 (8 bytes). */
    DECIMAL
}
