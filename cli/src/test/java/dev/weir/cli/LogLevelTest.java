package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.weir.testsupport.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Weir's own log lines through the CLI's slf4j-simple binding: off by default (the CLI's messages say what
 * happened, and its output stays as documented), on with {@code WEIR_LOG_LEVEL}: the resume line, the
 * checkpoints at debug, the stop summary; the lifecycle's lines word for word.
 */
class LogLevelTest
{
    @TempDir
    Path dir;

    @Test
    void weirsLogLinesAreOffByDefault() throws Exception
    {
        final String err = run(null);
        assertFalse(err.contains("dev.weir"), err);
    }

    @Test
    void weirLogLevelTurnsThemOn() throws Exception
    {
        final String err = run("debug");
        assertTrue(err.contains("INFO dev.weir.engine.Pipeline - pipeline default over ") && err.contains("starts from the beginning of the journal"), err);
        assertTrue(err.contains("DEBUG dev.weir.engine.checkpoint.CheckpointWriter - checkpoint "), err);
        assertTrue(err.contains("INFO dev.weir.engine.Pipeline - pipeline default over ") && err.contains(" stopped: 3 events this run"), err);
        final String over = "[main] INFO dev.weir.engine.Pipeline - pipeline default over " + dir.resolve("journal-debug");
        assertEquals(List.of(over + " starts from the beginning of the journal: no checkpoint",
                over + " running: to the end, FUSED, threads weir-default-<run>, pinning none",
                over + " stopped: 3 events this run (3 in all), last offset <offset>, 3 windows fired, <n> checkpoints, <ms> ms"),
            err.lines().filter(line -> line.contains(" dev.weir.engine.Pipeline "))
                .map(line -> line.replaceAll("weir-default-\\d+", "weir-default-<run>").replaceAll("last offset \\d+", "last offset <offset>")
                    .replaceAll("\\d+ checkpoints, \\d+ ms$", "<n> checkpoints, <ms> ms"))
                .toList(), err);
    }

    private String run(final String level) throws Exception
    {
        final Path input = Files.writeString(dir.resolve("events.csv"), "event_id,event_time,key,value\n1,1000,a,5\n2,2000,b,6\n3,9000,a,7\n");
        final Path journal = dir.resolve("journal-" + level);
        final ProcessBuilder builder = new ProcessBuilder(ChildJvm.weir("256m", "run", "--input", input.toString(), "--journal", journal.toString(),
            "--window", "tumbling:5s", "--results", dir.resolve("results-" + level + ".csv").toString()));
        builder.environment().remove(WeirCommand.LOG_LEVEL_VARIABLE);
        if (level != null)
        {
            builder.environment().put(WeirCommand.LOG_LEVEL_VARIABLE, level);
        }
        final Process child = builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        final String err = new String(child.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, child.exitValue(), err);
        return err;
    }
}
