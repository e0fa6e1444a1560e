package dev.weir.journal.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.weir.journal.JournalDirectory;
import dev.weir.journal.JournalRefusedException;

/**
 * A journal's schema: its text form round-trips, every invalid form is refused with its reason, and it
 * is fixed in the journal's marker when the journal is created (a default journal's marker unchanged).
 */
class JournalSchemaTest
{
    @TempDir
    Path dir;

    @Test
    void theTextFormRoundTrips()
    {
        final JournalSchema schema = JournalSchema.parse("card:string,merchant:string,country:string,amount:decimal(2),fee:long");
        assertEquals("card:string,merchant:string,country:string,amount:decimal(2),fee:long", schema.toString());
        assertEquals(5, schema.size());
        assertEquals(new JournalSchema.Column("amount", ColumnType.DECIMAL, 2), schema.column(3));
        assertEquals(4, schema.indexOf("fee"));
        assertEquals(-1, schema.indexOf("channel"));
        assertEquals("event_id,event_time,card,merchant,country,amount,fee", schema.csvHeader());
        assertEquals(schema, JournalSchema.parse(schema.toString()));
        assertTrue(JournalSchema.parse("key:string,value:long").isDefault());
        assertFalse(schema.isDefault());
        assertEquals(EventLineHeader.DEFAULT, JournalSchema.DEFAULT.csvHeader());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "card", "card:text", "Card:string", "card:string,card:long", "event_id:long", "event_time:long",
        "amount:decimal(19)", "amount:decimal()", "card:string,", "1card:string"})
    void anInvalidSchemaIsRefusedWithItsReason(final String spec)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> JournalSchema.parse(spec));
        assertFalse(ex.getMessage().isBlank());
    }

    @Test
    void aDefaultJournalsMarkerIsAsBeforeSchemasAndReadsAsTheDefault() throws IOException
    {
        final JournalDirectory journal = JournalDirectory.create(dir.resolve("default"));
        final List<String> marker = Files.readAllLines(journal.root().resolve(JournalDirectory.MARKER_FILE), StandardCharsets.UTF_8);
        assertEquals(3, marker.size(), "format, version, id: " + marker);
        assertEquals(JournalSchema.DEFAULT, JournalDirectory.open(journal.root()).schema());
    }

    @Test
    void aSchemaIsFixedAtCreationAndAnotherIsRefusedWithBothNamed()
    {
        final JournalSchema payments = JournalSchema.parse("card:string,amount:decimal(2)");
        final Path root = dir.resolve("payments");
        JournalDirectory.create(root, payments);
        assertEquals(payments, JournalDirectory.open(root).schema());
        assertEquals(payments, JournalDirectory.openOrCreate(root, payments).schema());
        assertEquals(payments, JournalDirectory.openOrCreate(root, null).schema());
        final JournalRefusedException ex = assertThrows(
            JournalRefusedException.class, () -> JournalDirectory.openOrCreate(root, JournalSchema.DEFAULT));
        assertTrue(ex.getMessage().contains("card:string,amount:decimal(2)") && ex.getMessage().contains("key:string,value:long"),
            ex.getMessage());
    }

    @Test
    void aMarkerWithAnUnreadableSchemaIsRefused() throws IOException
    {
        final JournalDirectory journal = JournalDirectory.create(dir.resolve("bad"));
        Files.writeString(journal.root().resolve(JournalDirectory.MARKER_FILE), "schema=card:text\n", StandardCharsets.UTF_8,
            java.nio.file.StandardOpenOption.APPEND);
        assertThrows(JournalRefusedException.class, () -> JournalDirectory.open(journal.root()));
    }

    /** The events header of the default schema, as the command line has always written it. */
    private static final class EventLineHeader
    {
        static final String DEFAULT = "event_id,event_time,key,value";
    }
}
