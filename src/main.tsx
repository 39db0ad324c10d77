import { createRoot } from 'react-dom/client';

// Placeholder entry until the app shell lands.
createRoot(document.getElementById('root')!).render(<main><h1>Cairn</h1></main>);
