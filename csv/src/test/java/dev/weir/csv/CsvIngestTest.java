package dev.weir.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.weir.journal.schema.JournalSchema;
import dev.weir.testsupport.JournalRows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java API of the CSV source: a file or a stream into a journal directory, exactly once (a second ingest of the
 * same source skips what the first appended), the rejected lines exported with their reasons, and an input refused
 * as a whole by a {@link CsvInputException} before the journal is created.
 */
class CsvIngestTest
{
    private static final String PAYMENTS = "card:string,amount:decimal(2)";

    @TempDir
    Path dir;

    @Test
    void aFileIsIngestedOnceIntoANewJournal() throws IOException
    {
        final Path input = dir.resolve("events.csv");
        Files.writeString(input, "event_id,event_time,card,amount\n1,1000,c1,12.50\n2,2000,\"c,2\",1\n3,3000,c3,1.234\n");
        final Path journal = dir.resolve("journal");
        final CsvIngest ingest = CsvIngest.into(journal).columns(JournalSchema.parse(PAYMENTS)).rejected(dir.resolve("rejected.csv")).build();
        assertEquals(new CsvIngest.Summary(3, 0, 2, 1, 1, 0), ingest.ingest(input));
        assertEquals(List.of("1|1000|c1|12.50", "2|2000|c,2|1.00"), JournalRows.events(journal));
        assertEquals("line,reason,content\n4,bad decimal in column amount: 1.234 (scale 2),\"3,3000,c3,1.234\"\n",
            Files.readString(dir.resolve("rejected.csv")));
        assertEquals(new CsvIngest.Summary(3, 3, 0, 0, 1, 0), ingest.ingest(input), "nothing appended twice");
        assertEquals(2, JournalRows.events(journal).size());
    }

    @Test
    void aStreamIsKnownByItsNameAndResumed()
    {
        final Path journal = dir.resolve("journal");
        final CsvIngest ingest = CsvIngest.into(journal).rejected(dir.resolve("rejected.csv")).build();
        assertEquals(new CsvIngest.Summary(1, 0, 1, 0, 0, 0), ingest.ingest(stream("event_id,event_time,key,value\n1,1000,k1,5\n"), "feed"));
        assertEquals(new CsvIngest.Summary(2, 1, 1, 0, 0, 0),
            ingest.ingest(stream("event_id,event_time,key,value\n1,1000,k1,5\n2,2000,k2,6"), "feed"), "its last line, unterminated, is complete");
        assertEquals(List.of("1|1000|k1|5", "2|2000|k2|6"), JournalRows.events(journal));
        assertThrows(IllegalArgumentException.class, () -> CsvIngest.into(journal).build().ingest(stream(""), "feed"), "no rejected file");
        assertThrows(IllegalArgumentException.class, () -> ingest.ingest(stream(""), "a\tb"));
    }

    @Test
    void anInputRefusedAsAWholeIsACsvInputExceptionAndTouchesNoJournal() throws IOException
    {
        final Path journal = dir.resolve("journal");
        final CsvIngest ingest = CsvIngest.into(journal).build();
        final CsvInputException missing = assertThrows(CsvInputException.class, () -> ingest.ingest(dir.resolve("none.csv")));
        assertEquals("input file not found: " + dir.resolve("none.csv"), missing.getMessage());
        final Path input = dir.resolve("events.csv");
        Files.writeString(input, "id,time,key,value\n1,1000,k1,5\n");
        final CsvInputException header = assertThrows(CsvInputException.class, () -> ingest.ingest(input));
        assertEquals(input + " does not start with the header 'event_id,event_time,key,value'", header.getMessage());
        assertFalse(Files.exists(journal));
    }

    private static ByteArrayInputStream stream(final String text)
    {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
