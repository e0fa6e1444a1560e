package dev.weir.csv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's card payments as Java API: the same arguments write the same bytes, a file of the default header that
 * {@link CsvIngest} ingests with exactly the malformed lines {@link SamplePayments#writeTo} reports rejected.
 */
class SamplePaymentsTest
{
    @TempDir
    Path dir;

    @Test
    void theSameSeedWritesTheSameBytesAndAnotherSeedOthers() throws IOException
    {
        final Path first = dir.resolve("first.csv");
        final Path again = dir.resolve("again.csv");
        final Path other = dir.resolve("other.csv");
        new SamplePayments(2_000, 50, 42).writeTo(first);
        new SamplePayments(2_000, 50, 42).writeTo(again);
        new SamplePayments(2_000, 50, 43).writeTo(other);
        assertArrayEquals(Files.readAllBytes(first), Files.readAllBytes(again));
        assertFalse(Arrays.equals(Files.readAllBytes(first), Files.readAllBytes(other)));
        final List<String> lines = Files.readAllLines(first);
        assertEquals(CsvLineParser.DEFAULT_HEADER, lines.get(0));
        assertEquals(1 + 2_000 + 3, lines.size(), "the header, every payment and three malformed lines");
        assertTrue(lines.stream().skip(1).filter(line -> line.startsWith("1")).allMatch(line -> line.matches("\\d+,\\d+,card-00[0-5]\\d,\\d+")
            || line.startsWith("123,") || line.startsWith("124,")), "cards card-0001..card-0050, amounts in cents");
    }

    @Test
    void itsMalformedLinesAreTheOnlyOnesRejected() throws IOException
    {
        final Path csv = dir.resolve("payments.csv");
        final int malformed = new SamplePayments(1_000, 20, 7).writeTo(csv);
        final CsvIngest.Summary summary = CsvIngest.into(dir.resolve("journal")).rejected(dir.resolve("rejected.csv")).build().ingest(csv);
        assertEquals(3, malformed);
        assertEquals(new CsvIngest.Summary(1_003, 0, 1_000, malformed, malformed, 0), summary);
    }

    @Test
    void countsOutOfRangeAreRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new SamplePayments(0, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> new SamplePayments(10, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new SamplePayments(10, 10_000, 1));
    }
}
