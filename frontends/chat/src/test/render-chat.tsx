import { useLocation } from 'react-router-dom';
import { renderWithProviders } from '@aict/web-kit/testing';
import App from '../app/App';

function LocationProbe() {
  const { pathname, search } = useLocation();
  return <output aria-label="location">{pathname + search}</output>;
}

/** The chat remote's routes at `route`, as the shell mounts them. */
export function renderChat(route = '/') {
  localStorage.setItem('currentWorkspaceId', '1');
  return renderWithProviders(
    <>
      <App />
      <LocationProbe />
    </>,
    { route },
  );
}

/** Sets what (max-width: …) media queries answer: a phone, a tablet or a desktop width. */
export function setViewportWidth(width: number) {
  window.matchMedia = ((query: string) => {
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    const matches =
      (max ? width <= Number(max[1]) : true) && (min ? width >= Number(min[1]) : true);
    return {
      matches,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    };
  }) as unknown as typeof window.matchMedia;
}
