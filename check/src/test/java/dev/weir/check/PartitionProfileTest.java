package dev.weir.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partitions of any pipeline's shape are read: the default key, a key column of another name, a
 * composite key with RFC 4180 quoted fields, aggregate columns, and JSONL with the key fields named after
 * their columns; a row repeated in another partition is a duplicate, rows that differ in any key column
 * are not.
 */
class PartitionProfileTest
{
    @TempDir
    Path dir;

    @Test
    void aCompositeKeyWithQuotedFieldsIsOneIdentity() throws IOException
    {
        write("2026-12-01", "results.csv", "window_start,window_end,merchant,country,count,sum,min,max,version,aggregate",
            "0,60000,\"Café \"\"7\"\", Paris\",FR,2,10.50,5.00,5.50,0,3",
            "0,60000,\"Café \"\"7\"\", Paris\",DE,1,1.00,1.00,1.00,0,1",
            "0,60000,\"Café \"\"7\"\", Paris\",FR,3,12.50,2.00,5.50,1,4");
        write("2026-12-02", "results.csv", "window_start,window_end,merchant,country,count,sum,min,max,version,aggregate",
            "0,60000,\"Café \"\"7\"\", Paris\",FR,2,10.50,5.00,5.50,0,3"); // the first row again
        final PartitionProfile profile = PartitionProfile.of(dir);
        assertEquals(Map.of(LocalDate.of(2026, 12, 1), 3L, LocalDate.of(2026, 12, 2), 1L), profile.rowsByDate());
        assertEquals(1, profile.duplicateRows(), "the country and the version tell the other rows apart");
    }

    @Test
    void jsonlRowsAreIdentifiedByTheirKeyFieldsWhateverTheirNames() throws IOException
    {
        write("2026-12-01", "results.jsonl", null,
            "{\"window_start\":0,\"window_end\":60000,\"merchant\":\"m, \\\"1\\\"\",\"fee\":12,\"count\":2,\"sum\":3,\"min\":1,\"max\":2,\"version\":0}",
            "{\"window_start\":0,\"window_end\":60000,\"merchant\":\"m, \\\"1\\\"\",\"fee\":13,\"count\":2,\"sum\":3,\"min\":1,\"max\":2,\"version\":0}",
            "{\"window_start\":0,\"window_end\":60000,\"merchant\":\"m, \\\"1\\\"\",\"fee\":12,\"count\":5,\"sum\":9,\"min\":1,\"max\":2,\"version\":0}");
        final PartitionProfile profile = PartitionProfile.of(dir);
        assertEquals(3L, profile.rowsByDate().get(LocalDate.of(2026, 12, 1)));
        assertEquals(1, profile.duplicateRows(), "the third row repeats the first's key, window and version");
    }

    @Test
    void withAKindColumnUpdateEarlyAndFinalRowsOfOneWindowAreNotDuplicates() throws IOException
    {
        write("2026-12-01", "results.csv", "window_start,window_end,card,count,sum,min,max,version,kind,aggregate",
            "0,60000,c1,1,5.00,5.00,5.00,0,update,1",
            "0,60000,c1,2,9.00,4.00,5.00,0,update,2",
            "0,60000,c1,2,9.00,4.00,5.00,0,early,2",
            "0,60000,c1,2,9.00,4.00,5.00,0,final,2",
            "0,60000,c1,3,9.50,0.50,5.00,1,final,3");
        write("2026-12-02", "results.csv", "window_start,window_end,card,count,sum,min,max,version,kind,aggregate",
            "0,60000,c1,2,9.00,4.00,5.00,0,update,2", // a repeated update row
            "0,60000,c1,2,9.00,4.00,5.00,0,early,2"); // a repeated early row
        assertEquals(2, PartitionProfile.of(dir).duplicateRows(), "kinds and update counts tell the other rows apart");
        write("2026-12-03", "results.jsonl", null,
            "{\"window_start\":0,\"window_end\":60000,\"card\":\"c1\",\"count\":2,\"sum\":9,\"min\":4,\"max\":5,\"version\":0,\"kind\":\"update\"}",
            "{\"window_start\":0,\"window_end\":60000,\"card\":\"c1\",\"count\":3,\"sum\":9,\"min\":4,\"max\":5,\"version\":0,\"kind\":\"update\"}");
        assertEquals(2, PartitionProfile.of(dir).duplicateRows(), "JSONL update rows of one window and version with different counts are not duplicates");
        write("2026-12-04", "results.csv", "window_start,window_end,card,count,sum,min,max,version,kind", "0,60000,c1,1,5,5,5,0,later");
        assertThrows(IllegalArgumentException.class, () -> PartitionProfile.of(dir), "an unknown kind is not a results row");
    }

    @Test
    void rowsOfNamedAggregatesWithEmptyValuesAreResultsRows() throws IOException
    {
        write("2026-12-01", "results.csv", "window_start,window_end,instrument,n,p,version",
            "0,60000,AAPL,2,101.50,0",
            "0,60000,MSFT,0,,0", // an empty value is a value of its own, not a bad field
            "0,60000,AAPL,3,101.50,1");
        write("2026-12-02", "results.csv", "window_start,window_end,instrument,n,p,version", "0,60000,MSFT,0,,0"); // the second row again
        final PartitionProfile profile = PartitionProfile.of(dir);
        assertEquals(Map.of(LocalDate.of(2026, 12, 1), 3L, LocalDate.of(2026, 12, 2), 1L), profile.rowsByDate());
        assertEquals(1, profile.duplicateRows(), "the instrument and the version tell the other rows apart");
        write("2026-12-03", "results.jsonl", null,
            "{\"window_start\":0,\"window_end\":60000,\"instrument\":\"MSFT\",\"n\":0,\"p\":null,\"version\":0}",
            "{\"window_start\":0,\"window_end\":60000,\"instrument\":\"IBM\",\"n\":0,\"p\":null,\"version\":0}",
            "{\"window_start\":0,\"window_end\":60000,\"instrument\":\"MSFT\",\"n\":0,\"p\":null,\"version\":0}");
        assertEquals(2, PartitionProfile.of(dir).duplicateRows(), "the third JSONL row repeats the first");
    }

    @Test
    void updateRowsOfNamedAggregatesAreNotComparedTheirOtherRowsAre() throws IOException
    {
        write("2026-12-01", "results.csv", "window_start,window_end,card,high,version,kind",
            "0,60000,c1,5.00,0,update",
            "0,60000,c1,5.00,0,update", // a second event that left the maximum as it was: no count tells them apart
            "0,60000,c1,5.00,0,final",
            "0,60000,c1,5.00,0,final"); // a repeated final row
        assertEquals(1, PartitionProfile.of(dir).duplicateRows());
        write("2026-12-02", "results.jsonl", null,
            "{\"window_start\":0,\"window_end\":60000,\"card\":\"c1\",\"high\":5.00,\"version\":0,\"kind\":\"update\"}",
            "{\"window_start\":0,\"window_end\":60000,\"card\":\"c1\",\"high\":5.00,\"version\":0,\"kind\":\"update\"}",
            "{\"window_start\":0,\"window_end\":60000,\"card\":\"c1\",\"high\":5.00,\"version\":0,\"kind\":\"final\"}",
            "{\"window_start\":0,\"window_end\":60000,\"card\":\"c1\",\"high\":null,\"version\":1,\"kind\":\"final\"}");
        assertEquals(1, PartitionProfile.of(dir).duplicateRows(), "JSONL update rows are not compared either, and the final rows differ");
        write("2026-12-03", "results.csv", "window_start,window_end,card,high,version,kind", "0,60000,c1,5.00,x,final");
        final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> PartitionProfile.of(dir));
        assertTrue(bad.getMessage().contains("line 2 is not a results row"), bad.getMessage());
    }

    @Test
    void theDefaultShapeAndBadRowsAreReadAsBefore() throws IOException
    {
        write("2026-12-01", "results.csv", "window_start,window_end,key,count,sum,min,max,version", "0,10000,a,1,5,5,5,0", "0,10000,b,1,5,5,5,0");
        assertEquals(0, PartitionProfile.of(dir).duplicateRows());
        write("2026-12-03", "results.csv", "window_start,window_end,card,count,sum,min,max,version", "0,10000,\"unclosed,1,5,5,5,0");
        final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> PartitionProfile.of(dir));
        assertTrue(bad.getMessage().contains("line 2 is not a results row"), bad.getMessage());
        write("2026-12-03", "results.csv", "window_start,window_end,card,total", "0,10000,a,1");
        final IllegalArgumentException header = assertThrows(IllegalArgumentException.class, () -> PartitionProfile.of(dir));
        assertTrue(header.getMessage().contains("line 1 is not a results header"), header.getMessage());
    }

    private void write(final String date, final String name, final String header, final String... rows) throws IOException
    {
        final Path partition = Files.createDirectories(dir.resolve("date=" + date));
        final List<String> lines = new java.util.ArrayList<>();
        if (header != null)
        {
            lines.add(header);
        }
        lines.addAll(List.of(rows));
        Files.write(partition.resolve(name), lines);
    }
}
