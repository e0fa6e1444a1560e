package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.weir.journal.JournalDirectory;
import dev.weir.testsupport.ChildJvm;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No ANSI escape code and no carriage return reaches a file or a pipe, also when the command runs on a terminal
 * and only one of its streams is redirected: the commands run in a child JVM on a pseudo-terminal (util-linux
 * {@code script}), with standard error or output sent to a file. Needs Linux's {@code /proc} and {@code script};
 * skipped without them.
 */
@Tag("slow")
class TerminalCodesTest
{
    private static final long BOUND_S = 120;

    @TempDir
    Path dir;

    @Test
    void noProgressLineIsDrawnIntoAFileWhileStandardOutputIsATerminal() throws Exception
    {
        assumeTrue(onLinuxWithScript(), "needs /proc and util-linux script");
        final Path journal = dir.resolve("journal");
        final Path input = Files.writeString(dir.resolve("events.csv"), "event_id,event_time,key,value\n1,1000,a,5\n2,2000,b,6\n");
        assertEquals(0, Cli.run("ingest", "--input", input.toString(), "--journal", journal.toString()).exit());
        final Path err = dir.resolve("stderr.txt");
        final Process terminal = onTerminal("exec " + shell(ChildJvm.weir("256m", "run", "--journal", journal.toString(), "--window", "tumbling:1s",
            "--follow", "--results", dir.resolve("results.csv").toString())) + " 2>" + quote(err));
        final ProcessHandle follower = child(terminal);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_S);
        // the pipeline has applied the journal: a progress display, if the run shows one, was started before it began
        while (FollowerProgress.appliedOffset(JournalDirectory.open(journal), follower.pid()) < 0)
        {
            assertTrue(System.nanoTime() < deadline && follower.isAlive(), "the follower applies the journal: " + read(err));
            FollowerProgress.sleep(50);
        }
        assertFalse(threads(follower).contains("weir-progress"),
            "a progress line is drawn on standard error, which is a file (thread weir-progress runs): " + read(err));
        follower.destroy(); // SIGTERM: a clean stop
        assertTrue(terminal.waitFor(BOUND_S, TimeUnit.SECONDS), "the follower stops on SIGTERM");
        terminal.getOutputStream().close();
        assertClean(err);
    }

    @Test
    void helpAndUsageErrorsInFilesHaveNoEscapesThoughTheTerminalsHelpHasColours() throws Exception
    {
        assumeTrue(onLinuxWithScript(), "needs /proc and util-linux script");
        final Path help = dir.resolve("help.txt");
        final Path bare = dir.resolve("bare.txt");
        final Path mistyped = dir.resolve("mistyped.txt");
        final Path onTerminal = dir.resolve("terminal.txt");
        final Process terminal = onTerminal(String.join("; ",
            shell(ChildJvm.weir("128m", "run", "--help")) + " >" + quote(help),
            shell(ChildJvm.weir("128m")) + " 2>" + quote(bare),
            shell(ChildJvm.weir("128m", "run", "--windw", "tumbling:1s")) + " 2>" + quote(mistyped),
            shell(ChildJvm.weir("128m", "run", "--help"))), onTerminal);
        assertTrue(terminal.waitFor(BOUND_S, TimeUnit.SECONDS), "the commands end");
        terminal.getOutputStream().close();
        assertTrue(read(onTerminal).contains("\u001b["), "on the terminal itself, the help has colours: " + read(onTerminal));
        assertTrue(read(help).startsWith("Usage: weir run"), read(help));
        assertTrue(read(bare).contains("a command is required"), read(bare));
        assertTrue(read(mistyped).contains("--windw"), read(mistyped));
        for (final Path file : List.of(help, bare, mistyped))
        {
            assertClean(file);
        }
    }

    private Process onTerminal(final String command) throws IOException
    {
        return onTerminal(command, dir.resolve("terminal.txt"));
    }

    /** Runs a shell command on a new pseudo-terminal; its standard input stays open until the caller closes it. */
    private static Process onTerminal(final String command, final Path transcript) throws IOException
    {
        return new ProcessBuilder("script", "-qec", command, "/dev/null").redirectOutput(transcript.toFile())
            .redirectError(ProcessBuilder.Redirect.appendTo(transcript.toFile())).start();
    }

    /** The JVM {@code script} runs (the shell {@code exec}s it). */
    private static ProcessHandle child(final Process terminal)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_S);
        while (true)
        {
            final List<ProcessHandle> children = terminal.children().toList();
            if (!children.isEmpty() && children.get(0).info().command().orElse("").endsWith("java"))
            {
                return children.get(0);
            }
            assertTrue(System.nanoTime() < deadline && terminal.isAlive(), "script starts the JVM");
            FollowerProgress.sleep(20);
        }
    }

    /** The names of a process's threads, from /proc. */
    private static List<String> threads(final ProcessHandle process) throws IOException
    {
        final List<String> names = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(process.pid()), "task")))
        {
            for (final Path task : tasks.toList())
            {
                try
                {
                    names.add(Files.readString(task.resolve("comm")).trim());
                }
                catch (final IOException ended)
                {
                    // the thread ended meanwhile
                }
            }
        }
        return names;
    }

    private static void assertClean(final Path file) throws IOException
    {
        final String text = read(file);
        assertFalse(text.indexOf('\u001b') >= 0, file.getFileName() + " has an ANSI escape code: " + text);
        assertFalse(text.indexOf('\r') >= 0, file.getFileName() + " has a carriage return: " + text.replace("\r", "\\r"));
    }

    private static String read(final Path file) throws IOException
    {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    private static String shell(final List<String> command)
    {
        return command.stream().map(TerminalCodesTest::quote).collect(Collectors.joining(" "));
    }

    private static String quote(final Object word)
    {
        return "'" + word.toString().replace("'", "'\\''") + "'";
    }

    private static boolean onLinuxWithScript()
    {
        return Files.isDirectory(Path.of("/proc/self/fd")) && Stream.of(System.getenv("PATH").split(":"))
            .anyMatch(path -> Files.isExecutable(Path.of(path, "script")));
    }
}
