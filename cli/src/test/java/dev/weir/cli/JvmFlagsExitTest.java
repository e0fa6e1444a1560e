package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir} run in a JVM started without the flags Chronicle needs (here, {@code java -cp} with none)
 * prints one message naming the missing flags and the line to add, exits 2, and creates no journal.
 */
class JvmFlagsExitTest
{
    @TempDir
    Path dir;

    @Test
    void aJvmWithoutTheFlagsGetsOneMessageAndExitCodeTwo() throws Exception
    {
        final Path input = Files.writeString(dir.resolve("events.csv"), "event_id,event_time,key,value\n1,1000,a,5\n");
        final Path journal = dir.resolve("journal");
        final Process child = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), WeirCommand.class.getName(), "ingest", "--input", input.toString(),
            "--journal", journal.toString())).redirectErrorStream(true).start();
        final String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(2, TimeUnit.MINUTES));
        assertEquals(2, child.exitValue(), out);
        assertTrue(out.startsWith("weir: this JVM was started without "), out);
        assertTrue(out.contains("--add-opens=java.base/java.lang.reflect=ALL-UNNAMED") && out.contains("Maven Surefire: <argLine>"), out);
        assertFalse(out.contains("failed:"), "not a failure with a stack of causes: " + out);
        assertFalse(Files.exists(journal), "no journal is created");
    }
}
