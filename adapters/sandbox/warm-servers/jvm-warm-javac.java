// A warm javac for the process tier: one JVM compiles program after program, in memory, so that no
// compile pays the JVM's and javac's start-up (about 0.4 s idle, 2 s on a busy machine).
//
// Runs inside bwrap (no network, read-only root, private /tmp as its cwd). Sources come in on stdin
// and class files go back on stdout: the compiler reads and writes no file of any run, so runs
// cannot see each other's code. Annotation processors are off (-proc:none): no code of a program
// runs while it compiles. Other classes resolve only against the JDK and the run's own sources.
//
// Protocol, big-endian, strings as an int byte length then UTF-8:
//   request:  int source count, then per source its path and its text
//   response: int status (0 compiled, 1 did not), string javac's diagnostics as the command prints
//             them, int class count, then per class its path (com/x/Main.class) and int length + bytes.
// The server says it is ready with the int 0x4a415641 ("JAVA").

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavacServer {
  static final int READY = 0x4a415641;

  /** A source held in memory, named by its path relative to the run's work dir. */
  static final class Source extends SimpleJavaFileObject {
    final String path;
    final String text;

    Source(String path, String text) {
      super(URI.create("mem:///" + path), JavaFileObject.Kind.SOURCE);
      this.path = path;
      this.text = text;
    }

    @Override
    public String getName() {
      return path; // as the command names it in diagnostics: Main.java:3: error: ...
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return text;
    }
  }

  public static void main(String[] args) throws IOException {
    DataInputStream in = new DataInputStream(new BufferedInputStream(System.in));
    DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out)));
    // Nothing but the responses may reach the control pipe.
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    StandardJavaFileManager standard = compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8);
    out.writeInt(READY);
    out.flush();
    while (true) {
      int count;
      try {
        count = in.readInt();
      } catch (EOFException end) {
        return;
      }
      List<JavaFileObject> sources = new ArrayList<>();
      for (int i = 0; i < count; i++) sources.add(new Source(readString(in), readString(in)));
      Map<String, ByteArrayOutputStream> classes = new TreeMap<>();
      JavaFileManager manager = new ForwardingJavaFileManager<StandardJavaFileManager>(standard) {
        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind, FileObject sibling) {
          String path = className.replace('.', '/') + kind.extension;
          ByteArrayOutputStream bytes = new ByteArrayOutputStream();
          classes.put(path, bytes);
          return new SimpleJavaFileObject(URI.create("mem:///" + path), kind) {
            @Override
            public OutputStream openOutputStream() {
              return bytes;
            }
          };
        }
      };
      StringWriter diagnostics = new StringWriter();
      boolean compiled;
      try {
        List<String> options = List.of("-proc:none", "-implicit:none", "-classpath", "", "-sourcepath", "", "-encoding", "UTF-8");
        compiled = compiler.getTask(diagnostics, manager, null, options, null, sources).call();
      } catch (RuntimeException crash) {
        compiled = false;
        diagnostics.write("javac crashed: " + crash + "\n");
      }
      out.writeInt(compiled ? 0 : 1);
      writeString(out, diagnostics.toString());
      out.writeInt(compiled ? classes.size() : 0);
      if (compiled) {
        for (Map.Entry<String, ByteArrayOutputStream> entry : classes.entrySet()) {
          writeString(out, entry.getKey());
          byte[] bytes = entry.getValue().toByteArray();
          out.writeInt(bytes.length);
          out.write(bytes);
        }
      }
      out.flush();
    }
  }

  static String readString(DataInputStream in) throws IOException {
    byte[] bytes = new byte[in.readInt()];
    in.readFully(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  static void writeString(DataOutputStream out, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }
}
