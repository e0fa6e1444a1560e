package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import dev.weir.testsupport.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input that is not clean CSV: every bad line is rejected with its line number and a reason, every
 * good line is ingested exactly once, and nothing stops an ingest for good (issue 12, defect 1 and the
 * line longer than a journal document).
 */
class IngestHostileInputTest
{
    private static final byte[] BOM = {(byte)0xEF, (byte)0xBB, (byte)0xBF};

    @TempDir
    Path dir;

    @Test
    void aLineOfInvalidUtf8IsRejectedAndEveryOtherLineIsIngested() throws IOException
    {
        final Path input = dir.resolve("events.csv");
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes("event_id,event_time,key,value\n1,1000,a,1\n".getBytes(StandardCharsets.UTF_8));
        bytes.writeBytes(new byte[] {'5', ',', '1', ',', 'c', 'a', 'f', (byte)0xE9, ',', '1', '\n'});
        bytes.writeBytes("2,2000,b,2\n".getBytes(StandardCharsets.UTF_8));
        Files.write(input, bytes.toByteArray());
        final String journal = dir.resolve("journal").toString();

        final Cli first = Cli.run("ingest", "--input", input.toString(), "--journal", journal);
        assertEquals(0, first.exit(), first.out() + first.err());
        assertEquals(List.of("1,1000,a,1", "2,2000,b,2"), JournalContents.events(dir.resolve("journal")));
        final List<String> rejected = Files.readAllLines(dir.resolve("events.csv.rejected.csv"));
        assertEquals(2, rejected.size(), rejected.toString());
        assertTrue(rejected.get(1).startsWith("3,invalid UTF-8,"), rejected.toString());

        final Cli again = Cli.run("ingest", "--input", input.toString(), "--journal", journal);
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains("0 events appended"), again.out());

        final Cli run = Cli.run("run", "--input", input.toString(), "--window", "tumbling:10s", "--results", dir.resolve("r.csv").toString());
        assertEquals(0, run.exit(), run.out() + run.err());
        assertEquals(List.of("window_start,window_end,key,count,sum,min,max,version", "0,10000,a,1,1,1,1,0", "0,10000,b,1,2,2,2,0"),
            Files.readAllLines(dir.resolve("r.csv")));
    }

    @Test
    void twentyThousandLinesOfWhichManyAreHostileIngestEveryGoodLineOnceAndRejectEveryBadOneByNumber() throws IOException
    {
        final Path input = dir.resolve("hostile.csv");
        final List<String> good = new ArrayList<>();
        final Map<Long, String> bad = new TreeMap<>(); // line -> the reason it must have, or "" for any
        final SplittableRandom random = new SplittableRandom(12);
        try (OutputStream out = Files.newOutputStream(input))
        {
            out.write(BOM); // the file starts with a byte order mark: stripped
            out.write("event_id,event_time,key,value\r\n".getBytes(StandardCharsets.UTF_8));
            for (long line = 2; line <= 20_001; line++)
            {
                final String event = line + "," + (1_000 * line) + ",k" + random.nextInt(50) + "," + (random.nextInt(2_000) - 1_000);
                final boolean crlf = random.nextInt(4) == 0; // CRLF line ends, mixed with LF: accepted
                if (random.nextInt(100) < 15)
                {
                    out.write(hostile(random, line, bad));
                }
                else
                {
                    out.write(event.getBytes(StandardCharsets.UTF_8));
                    good.add(event);
                }
                out.write(crlf ? new byte[] {'\r', '\n'} : new byte[] {'\n'});
            }
        }
        final String journal = dir.resolve("journal").toString();
        final Cli first = Cli.run("ingest", "--input", input.toString(), "--journal", journal);
        assertEquals(0, first.exit(), first.out() + first.err());
        assertTrue(bad.size() > 2_500 && bad.size() < 3_500, "about 15% hostile: " + bad.size());
        assertEquals(good, JournalContents.events(dir.resolve("journal")), "every good line, once, in order");

        final Path rejectedFile = dir.resolve("hostile.csv.rejected.csv");
        final List<String> rows = Files.readAllLines(rejectedFile, StandardCharsets.UTF_8);
        assertEquals("line,reason,content", rows.get(0));
        final Map<Long, String> reasons = new TreeMap<>();
        for (final String row : rows.subList(1, rows.size()))
        {
            final int comma = row.indexOf(',');
            final String rest = row.substring(comma + 1);
            final String reason = rest.startsWith("\"") ? rest.substring(1, rest.indexOf('"', 1)) : rest.substring(0, rest.indexOf(','));
            assertTrue(!reason.isBlank(), row);
            assertTrue(row.length() < 2_000, "a rejected row stays readable: " + row.length() + " chars");
            reasons.put(Long.parseLong(row.substring(0, comma)), reason);
        }
        assertEquals(bad.keySet(), reasons.keySet(), "every bad line, by number, once");
        for (final Map.Entry<Long, String> expected : bad.entrySet())
        {
            assertTrue(reasons.get(expected.getKey()).startsWith(expected.getValue()),
                "line " + expected.getKey() + ": " + reasons.get(expected.getKey()) + ", expected " + expected.getValue());
        }
        assertEquals(rows.size() - 1, bad.size(), "no line rejected twice");

        final Cli again = Cli.run("ingest", "--input", input.toString(), "--journal", journal);
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains(" 0 events appended") && again.out().contains(", 0 rejected"), again.out());
        assertEquals(good.size(), JournalContents.events(dir.resolve("journal")).size(), "a rerun ingests nothing new");
        assertEquals(rows, Files.readAllLines(rejectedFile, StandardCharsets.UTF_8));
    }

    private static byte[] hostile(final SplittableRandom random, final long line, final Map<Long, String> bad)
    {
        final String kind;
        final String text;
        switch (random.nextInt(7))
        {
            case 0 ->
            {
                final byte[] noise = new byte[1 + random.nextInt(80)];
                for (int i = 0; i < noise.length; i++)
                {
                    byte b;
                    do
                    {
                        b = (byte)random.nextInt(256);
                    }
                    while (b == '\n' || b == '\r');
                    noise[i] = b;
                }
                noise[random.nextInt(noise.length)] = (byte)0xFF; // never valid in UTF-8
                bad.put(line, "invalid UTF-8");
                return noise;
            }
            case 1 ->
            {
                kind = "line too long";
                text = line + ",1000," + "k".repeat(100_000) + ",1";
            }
            case 2 ->
            {
                kind = "event_id is not a 64-bit integer";
                text = "\uFEFF" + line + ",1000,k,1"; // a byte order mark inside the file is no BOM: the id is not a number
            }
            case 3 ->
            {
                kind = "expected 4 fields";
                text = line + ",1000,k,1,extra";
            }
            case 4 ->
            {
                kind = "expected 4 fields";
                text = line + ",1000";
            }
            case 5 ->
            {
                kind = "value is not a 64-bit integer";
                text = line + ",1000,k,99999999999999999999";
            }
            default ->
            {
                kind = "key longer than";
                text = line + ",1000," + "x".repeat(65) + ",1";
            }
        }
        bad.put(line, kind);
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aLineLargerThanTheHeapOrAJournalDocumentIsRejectedAndDoesNotStopTheIngest() throws Exception
    {
        final Path input = dir.resolve("long.csv");
        final long keyBytes = 100L << 20; // a 100 MiB key: more than a Chronicle document or the child's 64 MiB heap can take whole
        try (OutputStream out = Files.newOutputStream(input))
        {
            out.write("event_id,event_time,key,value\n1,1000,a,1\n2,2000,".getBytes(StandardCharsets.UTF_8));
            final byte[] block = "k".repeat(1 << 20).getBytes(StandardCharsets.UTF_8);
            for (long i = 0; i < keyBytes >> 20; i++)
            {
                out.write(block);
            }
            out.write(",2\n3,3000,b,3\n".getBytes(StandardCharsets.UTF_8));
        }
        final Path journal = dir.resolve("journal");
        final Path log = dir.resolve("ingest.log");
        final List<String> command = ChildJvm.weir("64m", "ingest", "--input", input.toString(), "--journal", journal.toString());
        final Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(child.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "the ingest ends");
        assertEquals(0, child.exitValue(), Files.readString(log));
        assertEquals(List.of("1,1000,a,1", "3,3000,b,3"), JournalContents.events(journal));
        final List<String> rejected = Files.readAllLines(dir.resolve("long.csv.rejected.csv"));
        assertEquals(2, rejected.size());
        final long lineBytes = keyBytes + "2,2000,,2".length();
        assertTrue(rejected.get(1).startsWith("3,\"line too long: " + lineBytes + " bytes, the limit is 65536\",\"2,2000,kkk"),
            rejected.get(1).substring(0, 100));
        assertTrue(rejected.get(1).endsWith("... (" + lineBytes + " bytes in all; the first 1024 characters are kept)\""), "only the start is kept");
        assertTrue(rejected.get(1).length() < 1_200, "only the start of the line is kept: " + rejected.get(1).length());
    }
}
