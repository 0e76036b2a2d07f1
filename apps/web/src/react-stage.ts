/**
 * The boot's first stage (main.tsx imports it before boot.tsx): React and react-dom, about half of the
 * JavaScript the boot evaluates, in a task of their own. The build keeps them in one chunk
 * (`react-runtime`, vite.config.ts).
 */
import 'react';
import 'react-dom/client';
