package dev.weir.testsupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.StringDictionaries;
import dev.weir.journal.schema.JournalSchema;

/**
 * Reads a journal's events back as rows of every column ({@code event_id,event_time,} then each column,
 * a string as its text, a decimal with its scale, fields joined by {@code |}), for assertions. Stateless;
 * safe from any thread (each call opens and closes its own readers).
 */
public final class JournalRows
{
    private JournalRows()
    {
    }

    public static List<String> events(final Path journal)
    {
        final JournalDirectory directory = JournalDirectory.open(journal);
        final JournalSchema schema = directory.schema();
        final List<String> rows = new ArrayList<>();
        try (JournalReader reader = JournalReader.open(directory);
             StringDictionaries strings = StringDictionaries.open(JournalDirectory.open(journal)))
        {
            while (reader.poll((offset, event) ->
            {
                final StringBuilder b = new StringBuilder().append(event.eventId()).append('|').append(event.eventTime());
                for (int c = 0; c < schema.size(); c++)
                {
                    final JournalSchema.Column column = schema.column(c);
                    b.append('|');
                    if (column.type() == ColumnType.STRING)
                    {
                        b.append(strings.dictionary(c).name(event.stringId(c)));
                    }
                    else if (column.type() == ColumnType.DECIMAL)
                    {
                        b.append(new java.math.BigDecimal(java.math.BigInteger.valueOf(event.longColumn(c)), column.scale()).toPlainString());
                    }
                    else
                    {
                        b.append(event.longColumn(c));
                    }
                }
                rows.add(b.toString());
            }, 4096) > 0)
            {
                // drain
            }
        }
        return rows;
    }
}
