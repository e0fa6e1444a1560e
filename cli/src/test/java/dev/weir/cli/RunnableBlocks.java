package dev.weir.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.weir.testsupport.ChildJvm;

/**
 * The {@code sh runnable} blocks of the documentation, and their runner. A fenced block whose info string is
 * {@code sh runnable}, optionally followed by {@code exit=N} (the exit code it must end with, default 0) and
 * {@code continue}, is run by {@code bash -e} in a fresh scratch directory with {@code weir} on the PATH; a
 * {@code continue} block runs instead in the directory of the runnable block before it on the same page (the
 * next step of a tutorial). {@code weir} there is a script that runs the command line's main class with this
 * test's class path and the JVM flags of the other child-JVM tests ({@link ChildJvm}). A block must stop what it
 * starts. Not thread-safe: one test thread.
 */
final class RunnableBlocks
{
    /** How long one block may run: minutes, for a busy machine. */
    static final Duration BLOCK_TIMEOUT = Duration.ofMinutes(10);

    private static final String PREFIX = "sh runnable";
    private static final int OUTPUT_LINES = 80;

    private final Path scratch;
    private final Path bin;
    private int blocksRun;

    /**
     * @param scratch an empty directory for the blocks' directories and the {@code weir} script.
     * @throws IOException if the script cannot be written.
     */
    RunnableBlocks(final Path scratch) throws IOException
    {
        this.scratch = scratch;
        this.bin = Files.createDirectories(scratch.resolve("bin"));
        final StringBuilder script = new StringBuilder("#!/usr/bin/env bash\nexec");
        for (final String word : ChildJvm.weir("512m"))
        {
            script.append(" '").append(word.replace("'", "'\\''")).append('\'');
        }
        script.append(" \"$@\"\n");
        final Path weir = bin.resolve("weir");
        Files.writeString(weir, script);
        if (!weir.toFile().setExecutable(true))
        {
            throw new IOException("cannot make " + weir + " executable");
        }
    }

    /**
     * @param block a fenced block.
     * @return whether its info string starts with {@code sh runnable}.
     */
    static boolean isRunnable(final MarkdownPage.FencedBlock block)
    {
        return block.info().equals(PREFIX) || block.info().startsWith(PREFIX + " ");
    }

    /**
     * @param pages the pages.
     * @return one message per runnable block whose info string is malformed (an unknown word, a bad exit code, a
     *         {@code continue} with no runnable block before it); empty when all are well formed.
     */
    static List<String> malformed(final List<MarkdownPage> pages)
    {
        final List<String> malformed = new ArrayList<>();
        for (final MarkdownPage page : pages)
        {
            boolean before = false;
            for (final MarkdownPage.FencedBlock block : page.blocks())
            {
                if (!isRunnable(block))
                {
                    continue;
                }
                try
                {
                    final Options options = Options.of(block);
                    if (options.continues() && !before)
                    {
                        malformed.add(block.where() + ": 'continue' needs a runnable block before it on the page");
                    }
                }
                catch (final IllegalArgumentException ex)
                {
                    malformed.add(block.where() + ": " + ex.getMessage());
                }
                before = true;
            }
        }
        return malformed;
    }

    /**
     * Run every runnable block of the pages, in page order.
     *
     * @param pages the pages.
     * @return one message per block that failed: where it is, its exit code and the expected one (or that it
     *         timed out), and the end of its output; empty when all passed.
     * @throws IOException          if a block's files cannot be written.
     * @throws InterruptedException if interrupted.
     */
    List<String> failures(final List<MarkdownPage> pages) throws IOException, InterruptedException
    {
        final List<String> failures = new ArrayList<>(malformed(pages));
        if (!failures.isEmpty())
        {
            return failures;
        }
        for (final MarkdownPage page : pages)
        {
            Path dir = null;
            for (final MarkdownPage.FencedBlock block : page.blocks())
            {
                if (!isRunnable(block))
                {
                    continue;
                }
                final Options options = Options.of(block);
                if (!options.continues())
                {
                    dir = Files.createDirectories(scratch.resolve("block-" + (blocksRun + 1)));
                }
                final String failure = run(block, options, dir);
                if (failure != null)
                {
                    failures.add(failure);
                }
            }
        }
        return failures;
    }

    /** @return how many blocks were run. */
    int blocksRun()
    {
        return blocksRun;
    }

    private String run(final MarkdownPage.FencedBlock block, final Options options, final Path dir) throws IOException, InterruptedException
    {
        blocksRun++;
        final Path script = scratch.resolve("block-" + blocksRun + ".sh");
        final Path log = scratch.resolve("block-" + blocksRun + ".log");
        Files.writeString(script, String.join("\n", block.lines()) + "\n");
        final ProcessBuilder builder = new ProcessBuilder("bash", "-e", script.toString()).directory(dir.toFile())
            .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        builder.environment().remove("WEIR_PROGRESS");
        final Process process = builder.start();
        final String timedOut;
        if (process.waitFor(BLOCK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
        {
            if (process.exitValue() == options.exit())
            {
                return null;
            }
            timedOut = null;
        }
        else
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
            timedOut = "did not end within " + BLOCK_TIMEOUT.toMinutes() + " minutes";
        }
        final List<String> output = Files.readAllLines(log, StandardCharsets.UTF_8);
        final List<String> tail = output.subList(Math.max(0, output.size() - OUTPUT_LINES), output.size());
        return block.where() + ": the sh runnable block " + (timedOut != null ? timedOut
            : "exited " + process.exitValue() + ", expected " + options.exit()) + "; its output"
            + (tail.size() < output.size() ? " (last " + OUTPUT_LINES + " lines)" : "") + ":\n" + String.join("\n", tail);
    }

    /**
     * The words after {@code sh runnable}.
     *
     * @param exit      the exit code the block must end with.
     * @param continues whether it runs in the directory of the runnable block before it.
     */
    record Options(int exit, boolean continues)
    {
        static Options of(final MarkdownPage.FencedBlock block)
        {
            int exit = 0;
            boolean continues = false;
            for (final String word : block.info().substring(PREFIX.length()).trim().split("\\s+"))
            {
                if (word.isEmpty())
                {
                    continue;
                }
                if (word.equals("continue"))
                {
                    continues = true;
                }
                else if (word.matches("exit=\\d{1,3}"))
                {
                    exit = Integer.parseInt(word.substring("exit=".length()));
                }
                else
                {
                    throw new IllegalArgumentException("'" + word + "' in '" + block.info()
                        + "': a runnable block takes only exit=N and continue after 'sh runnable'");
                }
            }
            return new Options(exit, continues);
        }
    }
}
