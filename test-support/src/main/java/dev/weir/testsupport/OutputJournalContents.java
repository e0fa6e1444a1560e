package dev.weir.testsupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.weir.engine.expr.ColumnProjection;
import dev.weir.files.KeyText;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.codec.LateEventDecoder;
import dev.weir.journal.codec.ResultDecoder;
import dev.weir.journal.codec.ResultKind;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.schema.JournalSchema;

/**
 * Reads a journal's output journal back, for assertions: one line per output, in output-journal order,
 * {@code result,window_start,window_end,key,count,sum,min,max,version[,aggregate],source=S} or
 * {@code late,event_id,event_time,key,value,source=S}, the key named by the pipeline's key column (a string
 * column) and the value unscaled.
 * <p>
 * A source offset is a journal index, and two journals that hold the same events do not give them the
 * same indexes (every ingest start and rejected line takes an index, and the index's cycle is the day the
 * journal was written). So {@code S} names the event at that offset by its place among the journal's
 * events and its id ({@code #ordinal/id}), which is equal for equal event streams; an offset that is not
 * an event's is printed as {@code ?offset}, which no other journal reproduces.
 * <p>
 * Stateless; safe from any thread (each call opens and closes its own readers).
 */
public final class OutputJournalContents
{
    private OutputJournalContents()
    {
    }

    /**
     * @param journal a journal directory (no process may be appending to its output journal).
     * @return its outputs, in order, with their source offsets named by event.
     */
    public static List<String> outputs(final Path journal)
    {
        return outputs(journal, JournalDirectory.DEFAULT_PIPELINE);
    }

    /**
     * @param journal  a journal directory.
     * @param pipeline the pipeline whose output journal to read (no process may be appending to it).
     * @return its outputs, in order, with their source offsets named by event.
     */
    public static List<String> outputs(final Path journal, final String pipeline)
    {
        return outputs(journal, pipeline, ColumnProjection.DEFAULT_KEY);
    }

    /**
     * @param journal   a journal directory.
     * @param pipeline  the pipeline whose output journal to read (no process may be appending to it).
     * @param keyColumn the pipeline's key column ({@code --key}), or several separated by commas.
     * @return its outputs, in order, with their source offsets named by event.
     */
    public static List<String> outputs(final Path journal, final String pipeline, final String keyColumn)
    {
        final JournalDirectory directory = JournalDirectory.open(journal).pipeline(pipeline);
        final Map<Long, String> events = new HashMap<>();
        try (JournalReader reader = JournalReader.open(directory))
        {
            final long[] ordinal = {0};
            while (reader.poll((offset, id, time, key, value) -> events.put(offset, "#" + ordinal[0]++ + "/" + id), 4096) > 0)
            {
                // drain
            }
        }
        final List<String> outputs = new ArrayList<>();
        try (KeyText keys = KeyText.open(directory, ColumnProjection.of(directory.schema(), keyColumn, anyValueColumn(directory.schema())));
             OutputJournal output = OutputJournal.open(directory))
        {
            output.readAll(stored ->
            {
                if (stored.isResult())
                {
                    final ResultDecoder r = stored.result();
                    outputs.add((r.kind() == ResultKind.FINAL ? "result," : r.kind().label() + ",") + r.windowStart() + "," + r.windowEnd() + "," + key(keys, r.keyId()) + "," + r.count() + "," + r.sum()
                        + "," + r.min() + "," + r.max() + "," + r.version() + (r.hasAggregate() ? "," + r.aggregate() : "") + ",source="
                        + event(events, r.sourceOffset()));
                }
                else
                {
                    final LateEventDecoder l = stored.late();
                    outputs.add("late," + l.eventId() + "," + l.eventTime() + "," + key(keys, l.keyId()) + "," + l.value() + ",source="
                        + event(events, l.offset()));
                }
            });
        }
        return outputs;
    }

    /** @return a key's text, its columns separated by a bar. */
    private static String key(final KeyText keys, final int keyId)
    {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < keys.arity(); i++)
        {
            text.append(i == 0 ? "" : "|").append(keys.text(keyId, i));
        }
        return text.toString();
    }

    /** @return a long or decimal column's name: only the key's text is read, so which one does not matter. */
    private static String anyValueColumn(final JournalSchema schema)
    {
        for (int i = 0; i < schema.size(); i++)
        {
            if (schema.column(i).type() != ColumnType.STRING)
            {
                return schema.column(i).name();
            }
        }
        throw new IllegalArgumentException("no long or decimal column in " + schema);
    }

    private static String event(final Map<Long, String> events, final long offset)
    {
        final String event = events.get(offset);
        return event != null ? event : "?" + offset;
    }
}
