// The screen frame lives in @aict/web-kit (one component for every remote).
export { Page } from '@aict/web-kit';
