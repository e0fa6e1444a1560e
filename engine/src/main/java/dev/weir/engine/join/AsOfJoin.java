package dev.weir.engine.join;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

import dev.weir.engine.expr.StringTexts;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.EventView;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.journal.schema.TableRowView;

/**
 * One {@code --join}: the state of one table as the pipeline has read it (its keys, texts and versions), the rows
 * applied in journal order ({@link #apply}), and the as-of lookup of an event ({@link #find}): the version of the
 * event's key with the greatest valid-from at or before the event's time, unless none, a tombstone or dead
 * ({@link TableVersions}). After a lookup, {@link #longColumn} and {@link #stringId} read the row found, or the
 * table's declared defaults (0, or "" for a string, when none) when there was none.
 * <p>
 * The event's key is its columns for the table's key columns. A string key column maps the event's dictionary id
 * to the table's text id through the text, once: a per-column cache of event id to table text id, filled on first
 * sight and, for an id the table did not have, looked up again only once the table has gained texts since. So a
 * lookup allocates nothing in steady state.
 * <p>
 * Not thread-safe: one owner thread (the pipeline's publisher).
 */
public final class AsOfJoin
{
    private static final int UNSEEN = -2;
    private static final int ABSENT = -1;

    private final int table;
    private final TableDefinition definition;
    private final TableKeys keys;
    /** Per table column, its texts (string columns), else null. */
    private final TableTexts[] texts;
    private final TableVersions versions;
    private final long[] defaults;
    private final long[] row;
    private final long[] tuple;
    /** Per key component, the event column read. */
    private final int[] eventColumns;
    /** Per key component, the table column it is. */
    private final int[] tableColumns;
    private final StringTexts eventTexts;
    /** Per key component (string ones only, else null): event id to table text id, or ABSENT, or UNSEEN. */
    private final int[][] textIds;
    /** Per key component (string ones only): for an ABSENT entry, the size of the table's texts when it was cached. */
    private final int[][] textsSeen;
    /** The slot the last lookup found, or {@link TableVersions#NONE}. */
    private int found = TableVersions.NONE;
    /**
     * For a one-column string key, the key index of each table text id (-1: no key of that text), so an event's key
     * is two array reads, not a hash probe; null for other keys.
     */
    private int[] keyByText;

    /**
     * @param table        the table's index in the journal ({@link TableRowView#table()}).
     * @param definition   the table's definition.
     * @param eventColumns per key column of the table, in key order, the event column that holds it (its type
     *                     checked by the configuration).
     * @param eventTexts   the texts of the event's string columns (event column indices), read on this join's thread.
     */
    public AsOfJoin(final int table, final TableDefinition definition, final int[] eventColumns, final StringTexts eventTexts)
    {
        if (eventColumns.length != definition.keySize())
        {
            throw new IllegalArgumentException("table " + definition.name() + " has " + definition.keySize() + " key columns, not "
                + eventColumns.length);
        }
        this.table = table;
        this.definition = definition;
        final JournalSchema columns = definition.columns();
        final int width = columns.size();
        this.keys = new TableKeys(definition.keySize());
        this.texts = new TableTexts[width];
        this.versions = new TableVersions(width);
        this.defaults = new long[width];
        this.row = new long[width];
        this.tuple = new long[definition.keySize()];
        this.eventColumns = eventColumns.clone();
        this.tableColumns = new int[eventColumns.length];
        this.eventTexts = eventTexts;
        this.textIds = new int[eventColumns.length][];
        this.textsSeen = new int[eventColumns.length][];
        for (int c = 0; c < width; c++)
        {
            final JournalSchema.Column column = columns.column(c);
            if (column.type() == ColumnType.STRING)
            {
                texts[c] = new TableTexts();
                defaults[c] = texts[c].intern(column.hasDefault() ? column.defaultValue() : ""); // id 0: the default
            }
            else
            {
                defaults[c] = column.hasDefault() ? column.defaultLong() : 0;
            }
        }
        if (definition.keySize() == 1 && texts[definition.keyColumn(0)] != null)
        {
            keyByText = new int[16];
            Arrays.fill(keyByText, -1);
        }
        for (int k = 0; k < tableColumns.length; k++)
        {
            tableColumns[k] = definition.keyColumn(k);
            if (texts[tableColumns[k]] != null)
            {
                textIds[k] = new int[16];
                textsSeen[k] = new int[16];
                Arrays.fill(textIds[k], UNSEEN);
            }
        }
    }

    /** @return the table's index in the journal. */
    public int table()
    {
        return table;
    }

    /** @return the table's definition. */
    public TableDefinition definition()
    {
        return definition;
    }

    /**
     * Apply a row of this table, read in journal order.
     *
     * @param tableRow the row, valid during the call.
     * @param horizon  the current horizon.
     */
    public void apply(final TableRowView tableRow, final long horizon)
    {
        for (int k = 0; k < tuple.length; k++)
        {
            final int c = tableColumns[k];
            tuple[k] = texts[c] != null ? texts[c].intern(tableRow.string(c)) : tableRow.longColumn(c);
        }
        final int key = keys.intern(tuple);
        if (keyByText != null)
        {
            noteKeyOfText((int)tuple[0], key);
        }
        final boolean tombstone = tableRow.tombstone();
        if (!tombstone)
        {
            for (int c = 0; c < row.length; c++)
            {
                row[c] = texts[c] != null ? texts[c].intern(tableRow.string(c)) : tableRow.longColumn(c);
            }
        }
        versions.put(key, tableRow.validFrom(), tombstone, row, horizon);
        versions.sweep(horizon, 2); // two keys per row: every key is visited while the table gets as many rows
    }

    /**
     * Look an event up; {@link #longColumn} and {@link #stringId} then read what it found.
     *
     * @param event   the event.
     * @param horizon the current horizon.
     * @return true if the event joins a row, false for no row (then the columns read the defaults).
     */
    public boolean find(final EventView event, final long horizon)
    {
        final int key = keyOf(event);
        found = key < 0 ? TableVersions.NONE : versions.find(key, event.eventTime(), horizon);
        return found != TableVersions.NONE;
    }

    /**
     * @param column a long or decimal column of the table.
     * @return its value in the row the last lookup found, or its default.
     */
    public long longColumn(final int column)
    {
        return found == TableVersions.NONE ? defaults[column] : versions.column(found, column);
    }

    /**
     * @param column a string column of the table.
     * @return the id ({@link #texts(int)}) of its value in the row the last lookup found, or of its default.
     */
    public int stringId(final int column)
    {
        return (int)(found == TableVersions.NONE ? defaults[column] : versions.column(found, column));
    }

    /**
     * @param column a string column of the table.
     * @return its texts.
     */
    public TableTexts texts(final int column)
    {
        return texts[column];
    }

    /** @return the versions held. */
    public TableVersions versions()
    {
        return versions;
    }

    /** @return the keys of the table read so far. */
    public TableKeys keys()
    {
        return keys;
    }

    /** @return the entries held: versions, keys and texts, each a bounded number of bytes. */
    long entries()
    {
        long entries = (long)versions.versions() + keys.size();
        for (final TableTexts column : texts)
        {
            entries += column == null ? 0 : column.size();
        }
        return entries;
    }

    /**
     * Write the table's state ({@link JoinStateFile}): each string column's texts in column order, the keys, then
     * the versions. The caches of event ids are not written: they fill again on lookups.
     */
    void write(final DataOutputStream out) throws IOException
    {
        for (final TableTexts column : texts)
        {
            if (column != null)
            {
                column.write(out);
            }
        }
        keys.write(out);
        versions.write(out, keys.size());
    }

    /** Read what {@link #write} wrote into this join, which must not have applied a row yet. */
    void read(final DataInputStream in) throws IOException
    {
        for (final TableTexts column : texts)
        {
            if (column != null)
            {
                column.read(in);
            }
        }
        keys.read(in);
        versions.read(in, keys.size());
        if (keyByText != null)
        {
            Arrays.fill(keyByText, -1);
            for (int key = 0; key < keys.size(); key++)
            {
                noteKeyOfText((int)keys.component(key, 0), key);
            }
        }
    }

    private int keyOf(final EventView event)
    {
        for (int k = 0; k < tuple.length; k++)
        {
            if (textIds[k] == null)
            {
                tuple[k] = event.longColumn(eventColumns[k]);
            }
            else
            {
                final int textId = tableText(k, event.stringId(eventColumns[k]));
                if (textId < 0)
                {
                    return -1; // a text the table never had: no key of it
                }
                tuple[k] = textId;
            }
        }
        if (keyByText != null)
        {
            final int text = (int)tuple[0];
            return text < keyByText.length ? keyByText[text] : -1;
        }
        return keys.indexOf(tuple);
    }

    /** A one-column string key: its table text id now names key {@code key} (texts and keys only grow). */
    private void noteKeyOfText(final int text, final int key)
    {
        if (text >= keyByText.length)
        {
            final int old = keyByText.length;
            keyByText = Arrays.copyOf(keyByText, Math.max(old * 2, text + 1));
            Arrays.fill(keyByText, old, keyByText.length, -1);
        }
        keyByText[text] = key;
    }

    /** The table's text id of an event's string id, through the cache. */
    private int tableText(final int k, final int eventId)
    {
        int[] ids = textIds[k];
        if (eventId >= ids.length)
        {
            final int old = ids.length;
            ids = textIds[k] = Arrays.copyOf(ids, Math.max(old * 2, eventId + 1));
            Arrays.fill(ids, old, ids.length, UNSEEN);
            textsSeen[k] = Arrays.copyOf(textsSeen[k], ids.length);
        }
        final int cached = ids[eventId];
        final TableTexts column = texts[tableColumns[k]];
        if (cached >= 0 || (cached == ABSENT && textsSeen[k][eventId] == column.size()))
        {
            return cached;
        }
        final int id = column.idOf(eventTexts.textOf(eventColumns[k], eventId));
        ids[eventId] = id < 0 ? ABSENT : id;
        textsSeen[k][eventId] = column.size();
        return id;
    }
}
