package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The delivery records: written and read back, advanced, and any record that cannot be read in full
 * (torn, garbage, an unknown older version, a CRC mismatch) needs every output, never none.
 */
class DeliveryPositionsTest
{
    private static final String TARGET = "jdbc:postgresql://127.0.0.1:5432/weir";

    @TempDir
    Path dir;

    @Test
    void aRegisteredRecordReadsBackAndAdvances()
    {
        assertEquals(List.of(), DeliveryPositions.read(dir), "no deliveries directory: no records");
        final Path file = DeliveryPositions.register(dir, "weir_results", TARGET, DeliveryPositions.EVERYTHING, 1_000);
        assertEquals(dir.resolve("deliveries"), file.getParent());
        assertTrue(file.getFileName().toString().matches("weir_results-[0-9a-f]{8}\\.position"), file.toString());
        DeliveryPositions.DeliveryPosition read = DeliveryPositions.readFile(file);
        assertNull(read.problem());
        assertEquals("weir_results", read.table());
        assertEquals(TARGET, read.target());
        assertEquals(DeliveryPositions.EVERYTHING, read.position());
        assertTrue(read.needsEverything());
        assertEquals(Instant.ofEpochMilli(1_000), read.updated());

        assertEquals(file, DeliveryPositions.advance(dir, "weir_results", TARGET, 128_562_686_295_277_568L, 2_000));
        read = DeliveryPositions.readFile(file);
        assertEquals(128_562_686_295_277_568L, read.position());
        assertFalse(read.needsEverything());
        assertEquals(Instant.ofEpochMilli(2_000), read.updated());

        DeliveryPositions.register(dir, "weir_results", "jdbc:postgresql://other:5432/weir", 5, 0);
        DeliveryPositions.register(dir, "other", TARGET, 7, 0);
        assertEquals(3, DeliveryPositions.read(dir).size(), "one record per table and target");
    }

    @Test
    void aRecordThatCannotBeReadInFullNeedsEverything() throws IOException
    {
        final Path file = DeliveryPositions.advance(dir, "weir_results", TARGET, 123_456_789L, 0);
        final String good = Files.readString(file);

        assertNeedsEverything(file, good.substring(0, good.length() / 2), "complete lines");
        assertNeedsEverything(file, good.substring(0, good.length() - 1), "complete lines");
        assertNeedsEverything(file, "", "complete lines");
        assertNeedsEverything(file, "\u0000\u0000garbage\n", "complete lines");
        assertNeedsEverything(file, good.replace("position=123456789", "position=123456780"), "CRC");
        assertNeedsEverything(file, good.replace("version=1", "version=0"), "version 0"); // never written; a newer one is refused (NewerFormatsTest)
        assertNeedsEverything(file, good.replace("format=weir-delivery-position", "format=something-else"), "not a delivery record");
        Files.delete(file);
        assertNeedsEverything(file, null, "cannot be read");
    }

    @Test
    void temporaryAndOtherFilesAreNotRecords() throws IOException
    {
        DeliveryPositions.register(dir, "weir_results", TARGET, 3, 0);
        Files.writeString(dir.resolve("deliveries").resolve(".weir_results-00000000.position.tmp"), "half");
        Files.writeString(dir.resolve("deliveries").resolve("README"), "notes");
        assertEquals(1, DeliveryPositions.read(dir).size());
        Files.writeString(dir.resolve("deliveries").resolve("x-00000000.position"), "half");
        final List<DeliveryPositions.DeliveryPosition> records = DeliveryPositions.read(dir);
        assertEquals(2, records.size());
        assertTrue(records.get(1).needsEverything() && records.get(1).problem() != null, records.toString());
    }

    @Test
    void theTargetHoldsNoCredentials()
    {
        assertEquals(TARGET, DeliveryPositions.target(TARGET + "?user=weir&password=secret"));
        assertEquals(TARGET, DeliveryPositions.target("jdbc:postgresql://weir:secret@127.0.0.1:5432/weir?ssl=true"));
        assertEquals("jdbc:postgresql:weir", DeliveryPositions.target("jdbc:postgresql:weir"));
        assertThrows(IllegalArgumentException.class, () -> DeliveryPositions.register(dir, "a/b", TARGET, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> DeliveryPositions.register(dir, "t", "x\ny", 1, 0));
    }

    private static void assertNeedsEverything(final Path file, final String content, final String problem) throws IOException
    {
        if (content != null)
        {
            Files.write(file, content.getBytes(StandardCharsets.UTF_8));
        }
        final DeliveryPositions.DeliveryPosition read = DeliveryPositions.readFile(file);
        assertTrue(read.needsEverything(), read.toString());
        assertEquals(DeliveryPositions.EVERYTHING, read.position());
        assertTrue(read.problem() != null && read.problem().contains(problem), read.problem());
    }
}
