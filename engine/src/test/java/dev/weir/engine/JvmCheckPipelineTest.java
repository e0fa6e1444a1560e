package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.weir.journal.EventJournal;
import dev.weir.journal.JvmFlags;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Building a pipeline in a JVM started without the flags Chronicle needs fails at once with a message naming
 * them and the line to add, and leaves the journal as it was (no checkpoint, no output journal change).
 */
class JvmCheckPipelineTest
{
    @TempDir
    Path dir;

    @Test
    void aPipelineIsNotBuiltWithoutTheFlags() throws Exception
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal events = EventJournal.openOrCreate(journal))
        {
            events.append(1, 10, "card-1", 5);
            events.append(2, 5_000, "card-1", 7);
        }
        final List<String> before = tree(journal);

        final String output = runWithoutFlags(journal);
        assertTrue(output.startsWith("refused:this JVM was started without "), output);
        for (final String flag : List.of("--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED"))
        {
            assertTrue(output.contains(flag), flag + "\n" + output);
        }
        assertTrue(output.contains("Maven Surefire: <argLine>"), output);
        assertTrue(output.contains("Gradle:         jvmArgs(\""), output);
        assertTrue(output.contains("java:           java --add-opens="), output);
        assertEquals(before, tree(journal), "files, sizes and times");
    }

    private static String runWithoutFlags(final Path journal) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-ea");
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(JvmCheckPipelineChild.class.getName());
        command.add(journal.toString());
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("JDK_JAVA_OPTIONS");
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the child ends");
        assertEquals(JvmCheckPipelineChild.REFUSED, process.exitValue(), output);
        assertTrue(JvmFlags.missing().isEmpty(), "this test's JVM has the flags");
        return output;
    }

    private static List<String> tree(final Path root) throws IOException
    {
        try (Stream<Path> files = Files.walk(root))
        {
            final List<String> entries = new ArrayList<>();
            for (final Path file : (Iterable<Path>)files.sorted()::iterator)
            {
                entries.add(root.relativize(file) + " " + (Files.isRegularFile(file) ? Files.size(file) : -1)
                    + " " + Files.getLastModifiedTime(file));
            }
            return entries;
        }
    }
}
