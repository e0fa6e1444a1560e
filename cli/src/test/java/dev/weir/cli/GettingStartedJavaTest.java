package dev.weir.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import dev.weir.testsupport.ChildJvm;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java program of docs/getting-started.md compiles against this build and, run in a child JVM over the
 * page's own payments CSV (its first {@code sh runnable} block), prints the output the page shows after it.
 * Slow: it compiles and starts a JVM.
 */
@Tag("slow")
class GettingStartedJavaTest
{
    private static final Pattern CLASS = Pattern.compile("public final class (\\w+)");

    @TempDir
    Path dir;

    @Test
    void theJavaRuleCompilesRunsAndPrintsWhatThePageShows() throws IOException, InterruptedException
    {
        final MarkdownPage page = MarkdownPage.read(DocsTest.ROOT, DocsTest.ROOT.resolve("docs/getting-started.md"));
        final List<MarkdownPage.FencedBlock> blocks = page.blocks();
        final MarkdownPage.FencedBlock csv = blocks.stream().filter(RunnableBlocks::isRunnable).findFirst().orElseThrow();
        int java = 0;
        while (!blocks.get(java).info().equals("java"))
        {
            java++;
        }
        final String source = String.join("\n", blocks.get(java).lines()) + "\n";
        final List<String> expected = blocks.get(java + 1).lines();
        final Matcher name = CLASS.matcher(source);
        assertTrue(name.find(), "the page's Java block declares a public final class");

        final Path src = Files.createDirectories(dir.resolve("src"));
        final Path classes = Files.createDirectories(dir.resolve("classes"));
        final Path file = src.resolve(name.group(1) + ".java");
        Files.writeString(file, source);
        final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        assertNotNull(compiler, "a JDK, not a JRE");
        final StringWriter errors = new StringWriter();
        final boolean compiled = compiler.getTask(errors, null, null,
            List.of("-classpath", System.getProperty("java.class.path"), "-d", classes.toString()), null,
            compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8).getJavaFileObjects(file.toFile())).call();
        assertTrue(compiled, page.name() + ":" + blocks.get(java).line() + ": the Java block does not compile:\n" + errors);

        final Path work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(work.resolve("csv.sh"), String.join("\n", csv.lines()) + "\n");
        assertEquals(0, new ProcessBuilder("bash", "-e", "csv.sh").directory(work.toFile()).inheritIO().start().waitFor(), "the page's CSV block");

        final List<String> command = ChildJvm.command("256m", name.group(1));
        final int classPath = command.indexOf("-cp") + 1;
        command.set(classPath, classes + File.pathSeparator + command.get(classPath));
        final Path log = dir.resolve("java.log");
        final Process child = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(child.waitFor(5, TimeUnit.MINUTES), "the program ended");
        final String out = Files.readString(log);
        assertEquals(0, child.exitValue(), out);
        assertEquals(expected, out.lines().filter(l -> !l.isBlank()).toList(), "what " + page.name() + ":" + blocks.get(java + 1).line() + " shows");
    }
}
