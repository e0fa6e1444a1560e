package dev.weir.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalReader;
import dev.weir.journal.KeyDictionary;

/**
 * Reads a journal's events back as {@code event_id,event_time,key,value} rows, for assertions.
 */
final class JournalContents
{
    private JournalContents()
    {
    }

    static List<String> events(final Path journal)
    {
        final List<String> events = new ArrayList<>();
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(journal));
             KeyDictionary keys = KeyDictionary.open(JournalDirectory.open(journal)))
        {
            while (reader.poll((offset, id, time, key, value) -> events.add(id + "," + time + "," + keys.name(key) + "," + value), 4096) > 0)
            {
                // drain
            }
        }
        return events;
    }
}
