package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first Java snippet of docs/java-api.md ("A first pipeline") compiles against this build and runs: its statements become the body of
 * a {@code main} method (its imports stay imports), compiled with the system Java compiler, then run in a
 * child JVM whose working directory is empty, twice (the second run resumes from the first's checkpoint),
 * and its output is checked. A page that drifts from the API fails the build.
 */
@Tag("slow")
class ReadmeSnippetTest
{
    @TempDir
    Path dir;

    @Test
    void theReadmeJavaSnippetCompilesAndRuns() throws IOException, InterruptedException
    {
        final List<String> snippet = javaSnippet(Path.of(System.getProperty("maven.multiModuleProjectDirectory", ".."), "docs", "java-api.md"));
        final StringBuilder source = new StringBuilder();
        final StringBuilder body = new StringBuilder();
        for (final String line : snippet)
        {
            (line.startsWith("import ") ? source : body).append(line).append('\n');
        }
        source.append("public final class ReadmeSnippet {\n  public static void main(String[] args) throws Exception {\n")
            .append(body).append("  }\n}\n");
        final Path src = dir.resolve("src");
        final Path classes = dir.resolve("classes");
        Files.createDirectories(src);
        Files.createDirectories(classes);
        Files.writeString(src.resolve("ReadmeSnippet.java"), source);

        final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        assertNotNull(compiler, "a JDK, not a JRE");
        final StringWriter errors = new StringWriter();
        final boolean compiled = compiler.getTask(errors, null, null,
            List.of("-classpath", System.getProperty("java.class.path"), "-d", classes.toString()), null,
            compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8).getJavaFileObjects(src.resolve("ReadmeSnippet.java").toFile()))
            .call();
        assertTrue(compiled, "the Java snippet of docs/java-api.md does not compile:\n" + errors + "\n" + source);

        final Path work = dir.resolve("work");
        Files.createDirectories(work);
        final String first = run(classes, work);
        assertTrue(first.contains("resumed from null"), first);
        assertTrue(first.lines().anyMatch(l -> l.equals("0 card-0001 1250 avg 1250")), "the tumbling window of card-0001 fired:\n" + first);
        final String second = run(classes, work);
        assertTrue(second.contains("resumed from Checkpoint["), "the second run resumes:\n" + second);
    }

    private static String run(final Path classes, final Path work) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (arg.startsWith("--add-") || arg.startsWith("-Dchronicle."))
            {
                command.add(arg);
            }
        }
        command.add("-cp");
        command.add(classes + File.pathSeparator + System.getProperty("java.class.path"));
        command.add("ReadmeSnippet");
        final Process child = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true).start();
        final String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the snippet ended");
        assertEquals(0, child.exitValue(), out);
        return out;
    }

    private static List<String> javaSnippet(final Path page) throws IOException
    {
        final List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
        final int start = lines.indexOf("```java");
        assertTrue(start >= 0, "docs/java-api.md has a ```java block");
        final int end = lines.subList(start + 1, lines.size()).indexOf("```") + start + 1;
        return lines.subList(start + 1, end);
    }
}
