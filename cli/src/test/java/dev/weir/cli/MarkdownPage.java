package dev.weir.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One Markdown page of the documentation, read as GitHub renders what the docs test needs of it: its fenced
 * code blocks, the inline code of the other lines, its links and the anchors of its headings (GitHub's slugs).
 * Immutable once read; safe from any thread.
 */
final class MarkdownPage
{
    private static final Pattern FENCE = Pattern.compile("^( {0,3}(?:- |\\d+\\. )?\\s*)(`{3,}|~{3,})\\s*([^`]*)$");
    private static final Pattern INLINE_CODE = Pattern.compile("(`+)(.+?)\\1");
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
    private static final Pattern ATX_HEADING = Pattern.compile("^ {0,3}#{1,6}\\s+(.*?)(?:\\s+#+)?\\s*$");
    private static final Pattern SETEXT_UNDERLINE = Pattern.compile("^ {0,3}(?:=+|-+)\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");
    private static final Pattern NOT_SLUG = Pattern.compile("[^\\p{L}\\p{M}\\p{Nd}\\p{Pc} -]");

    private final Path file;
    private final String name;
    private final List<String> lines;
    private final List<FencedBlock> blocks = new ArrayList<>();
    /** Per line (index = line - 1): whether it is part of a fenced block, its fences included. */
    private final boolean[] fenced;

    private MarkdownPage(final Path file, final String name, final List<String> lines)
    {
        this.file = file;
        this.name = name;
        this.lines = List.copyOf(lines);
        this.fenced = new boolean[lines.size()];
        readBlocks();
    }

    /**
     * @param root the repository.
     * @return its README.md and every docs/*.md that exists, in name order.
     */
    static List<MarkdownPage> documentation(final Path root)
    {
        final List<Path> files = new ArrayList<>();
        if (Files.isRegularFile(root.resolve("README.md")))
        {
            files.add(root.resolve("README.md"));
        }
        final Path docs = root.resolve("docs");
        if (Files.isDirectory(docs))
        {
            try (Stream<Path> list = Files.list(docs))
            {
                list.filter(p -> p.getFileName().toString().endsWith(".md") && Files.isRegularFile(p)).sorted().forEach(files::add);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
        return files.stream().map(f -> read(root, f)).toList();
    }

    /**
     * @param root the repository (names are given relative to it).
     * @param file a Markdown file.
     * @return the page.
     */
    static MarkdownPage read(final Path root, final Path file)
    {
        try
        {
            return new MarkdownPage(file, root.relativize(file).toString(), Files.readAllLines(file));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** @return the file. */
    Path file()
    {
        return file;
    }

    /** @return the file's name relative to the repository, for messages. */
    String name()
    {
        return name;
    }

    /** @return its fenced code blocks, in order. */
    List<FencedBlock> blocks()
    {
        return blocks;
    }

    /**
     * @return every link target outside code, with its line: inline links, images and reference definitions.
     */
    List<Located> links()
    {
        final List<Located> links = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            if (fenced[i])
            {
                continue;
            }
            final String prose = INLINE_CODE.matcher(lines.get(i)).replaceAll("code");
            final Matcher link = LINK.matcher(prose);
            while (link.find())
            {
                links.add(new Located(i + 1, link.group(1)));
            }
            final Matcher reference = REFERENCE.matcher(prose);
            if (reference.matches())
            {
                links.add(new Located(i + 1, reference.group(1)));
            }
        }
        return links;
    }

    /**
     * @return the code a reader sees, with its line: each inline code span outside fenced blocks, and each
     *         command of a fenced block (a line ended by a backslash joined with the next).
     */
    List<Located> code()
    {
        final List<Located> code = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            if (!fenced[i])
            {
                final Matcher span = INLINE_CODE.matcher(lines.get(i));
                while (span.find())
                {
                    code.add(new Located(i + 1, span.group(2)));
                }
            }
        }
        for (final FencedBlock block : blocks)
        {
            code.addAll(block.commands());
        }
        code.sort((a, b) -> Integer.compare(a.line(), b.line()));
        return code;
    }

    /**
     * @return the anchors GitHub makes for this page: each heading's slug (a repeated one suffixed -1, -2, ...)
     *         and each HTML anchor's name or id.
     */
    Set<String> anchors()
    {
        final Set<String> anchors = new LinkedHashSet<>();
        final Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < lines.size(); i++)
        {
            if (fenced[i])
            {
                continue;
            }
            final String line = lines.get(i);
            String heading = null;
            final Matcher atx = ATX_HEADING.matcher(line);
            if (atx.matches())
            {
                heading = atx.group(1);
            }
            else if (!line.isBlank() && i + 1 < lines.size() && !fenced[i + 1] && SETEXT_UNDERLINE.matcher(lines.get(i + 1)).matches()
                && !line.trim().startsWith("|") && !line.trim().startsWith("-"))
            {
                heading = line.trim();
            }
            if (heading != null)
            {
                final String slug = slug(heading);
                final int count = seen.merge(slug, 1, Integer::sum);
                anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
            }
            final Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find())
            {
                anchors.add(html.group(1));
            }
        }
        return anchors;
    }

    /**
     * GitHub's heading anchor: the heading's text (inline code and links reduced to their text), lower case,
     * without any character but letters, digits, underscores, hyphens and spaces, each space made a hyphen.
     *
     * @param heading the heading's Markdown.
     * @return its slug.
     */
    static String slug(final String heading)
    {
        final String text = heading
            .replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
            .replace("`", "")
            .replaceAll("<[^>]+>", "");
        return NOT_SLUG.matcher(text.toLowerCase(Locale.ROOT)).replaceAll("").replace(' ', '-');
    }

    private void readBlocks()
    {
        int i = 0;
        while (i < lines.size())
        {
            final Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches())
            {
                i++;
                continue;
            }
            final String fence = open.group(2);
            final int start = i;
            final List<String> body = new ArrayList<>();
            i++;
            while (i < lines.size() && !closes(lines.get(i), fence))
            {
                body.add(lines.get(i));
                i++;
            }
            final int end = Math.min(i, lines.size() - 1);
            for (int l = start; l <= end; l++)
            {
                fenced[l] = true;
            }
            blocks.add(new FencedBlock(this, start + 1, open.group(3).trim(), List.copyOf(body)));
            i++;
        }
    }

    private static boolean closes(final String line, final String fence)
    {
        final String trimmed = line.trim();
        return trimmed.length() >= fence.length() && trimmed.chars().allMatch(c -> c == fence.charAt(0));
    }

    /**
     * A text found on a line of a page.
     *
     * @param line the 1-based line number.
     * @param text the text.
     */
    record Located(int line, String text)
    {
    }

    /**
     * A fenced code block.
     *
     * @param page  the page.
     * @param line  the 1-based line of its opening fence.
     * @param info  its info string (e.g. {@code sh runnable exit=2}), trimmed; empty if none.
     * @param lines its content.
     */
    record FencedBlock(MarkdownPage page, int line, String info, List<String> lines)
    {
        /** @return where it is, as {@code docs/x.md:12}. */
        String where()
        {
            return page.name() + ":" + line;
        }

        /** @return its commands, each with the line it starts on: a line ended by a backslash is joined with the next. */
        List<Located> commands()
        {
            final List<Located> commands = new ArrayList<>();
            final StringBuilder command = new StringBuilder();
            int first = -1;
            for (int i = 0; i < lines.size(); i++)
            {
                final String l = lines.get(i);
                if (first < 0)
                {
                    first = line + 1 + i;
                }
                if (l.endsWith("\\"))
                {
                    command.append(l, 0, l.length() - 1).append(' ');
                    continue;
                }
                command.append(l);
                commands.add(new Located(first, command.toString()));
                command.setLength(0);
                first = -1;
            }
            if (first >= 0)
            {
                commands.add(new Located(first, command.toString()));
            }
            return commands;
        }
    }
}
